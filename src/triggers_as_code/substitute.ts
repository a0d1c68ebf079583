import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { failure, success, type ConfigError, type ConfigResult } from "./config_error.ts";
import { locate, pointerChild } from "./locate.ts";
import { readProblem } from "./parse_config.ts";

export interface SubstituteOptions {
  /** Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /** Where a relative `${file:…}` path is found (the config file's folder); default: the working directory. */
  baseDir?: string;
  /** Default: the file's contents as UTF-8. */
  readFile?: (path: string) => string;
}

/**
 * A substitution's outcome. When placeholders failed, `partial` is the document with those left
 * as written (every other one substituted) and where they were, so the rest of the file can still
 * be checked and all its errors reported at once.
 */
export type SubstituteResult = ConfigResult<Substituted> | { ok: false; errors: ConfigError[]; partial: Substituted & { failedPointers: string[] } };

export interface Substituted {
  document: unknown;
  /**
   * JSON pointers (from the file's root) of the strings that held a placeholder: their values
   * came from the environment or a file, so nothing that reports on the file prints them.
   */
  substitutedPaths: string[];
}

/** `$${` is a literal `${`; `${…}` a placeholder; a `${` with no `}` after it, an error. */
const PLACEHOLDER = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A YAML file's aliases can repeat a value many times over (or contain it): this bounds the walk. */
const MAX_VALUES = 1_000_000;
const LITERAL_HINT = "write $${ for a literal ${ (as in a script's template literal)";

/**
 * Replaces `${NAME}` (the environment variable NAME) and `${file:PATH}` (that file's contents,
 * one trailing newline removed) in every string value of a parsed config file; keys are never
 * touched, and substituted text is not scanned again. Every unset variable, unreadable file or
 * malformed placeholder is reported, with the trigger and field where it was used.
 */
export function substitute(document: unknown, options: SubstituteOptions = {}): SubstituteResult {
  const env = options.env ?? process.env;
  const baseDir = options.baseDir ?? process.cwd();
  const readFile = options.readFile ?? ((path: string) => readFileSync(path, "utf8"));
  const errors: ConfigError[] = [];
  const substitutedPaths: string[] = [];
  const ancestors = new Set<object>();
  let visited = 0;
  const failedPointers: string[] = [];
  const fail = (pointer: string, code: ConfigError["code"], message: string) => {
    failedPointers.push(pointer);
    errors.push({ code, ...locate(document, pointer), message });
  };

  const inString = (text: string, pointer: string): string => {
    let substituted = false;
    const out = text.replace(PLACEHOLDER, (match: string, inside: string | undefined) => {
      if (match === "$${") return "${";
      if (inside === undefined) {
        fail(pointer, "bad_placeholder", `\${ without a closing }: ${LITERAL_HINT}`);
        return match;
      }
      substituted = true;
      if (inside.startsWith("file:")) {
        const path = resolve(baseDir, inside.slice("file:".length));
        try {
          return readFile(path).replace(/\r?\n$/, "");
        } catch (error) {
          fail(pointer, "unreadable_secret_file", `cannot read the file ${path}: ${readProblem(error)}`);
          return match;
        }
      }
      if (!VARIABLE.test(inside)) {
        fail(pointer, "bad_placeholder", `\${${inside}} is neither an environment variable (letters, digits, _) nor file:PATH: ${LITERAL_HINT}`);
        return match;
      }
      const value = env[inside];
      if (value === undefined) fail(pointer, "unset_variable", `the environment variable ${inside} is not set`);
      return value ?? match;
    });
    if (substituted) substitutedPaths.push(pointer);
    return out;
  };

  const walk = (value: unknown, pointer: string): unknown => {
    if (++visited > MAX_VALUES) throw new TooLarge();
    if (typeof value === "string") return inString(value, pointer);
    if (value === null || typeof value !== "object") return value;
    if (ancestors.has(value)) throw new Cycle(pointer);
    ancestors.add(value);
    try {
      if (Array.isArray(value)) return value.map((item, i) => walk(item, pointerChild(pointer, String(i))));
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        // A key "__proto__" stays an own member, as the parser made it.
        Object.defineProperty(out, key, { value: walk(item, pointerChild(pointer, key)), enumerable: true, writable: true, configurable: true });
      }
      return out;
    } finally {
      ancestors.delete(value);
    }
  };

  let result: unknown;
  try {
    result = walk(document, "");
  } catch (error) {
    if (error instanceof Cycle)
      return failure([
        { code: "invalid_file", ...locate(document, error.pointer), message: "a YAML alias here refers to a value that contains it: the file would never end" },
      ]);
    if (error instanceof TooLarge)
      return failure([{ code: "too_large", message: `the file holds more than ${MAX_VALUES} values once its YAML aliases are expanded` }]);
    throw error;
  }
  if (errors.length > 0) return { ok: false, errors, partial: { document: result, substitutedPaths, failedPointers } };
  return success({ document: result, substitutedPaths });
}

class Cycle {
  constructor(readonly pointer: string) {}
}
class TooLarge {}
