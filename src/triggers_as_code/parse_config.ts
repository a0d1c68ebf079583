import { readFileSync } from "node:fs";
import { readJsonExactly } from "../json/json_reader.ts";
import { failure, success, type ConfigError, type ConfigResult } from "./config_error.ts";

export type ConfigFormat = "yaml" | "json";

/** The format a file name's extension says (`.yaml`, `.yml`, `.json`, any case), or null. */
export function formatOf(path: string): ConfigFormat | null {
  const extension = /\.([A-Za-z]+)$/.exec(path)?.[1]?.toLowerCase();
  if (extension === "yaml" || extension === "yml") return "yaml";
  if (extension === "json") return "json";
  return null;
}

/** Past this many lines a YAML error is reported without its line (finding it costs a parse per line). */
const MAX_LINES_TO_LOCATE = 10_000;

/**
 * Bun's YAML parser says what is wrong but not where. The line is found here: the longest run of
 * leading lines that still parses ends just before the construct that does not, so the next
 * line is where that construct starts (an unclosed `[` or quote is reported where it opens).
 */
function yamlErrorLine(text: string): number | undefined {
  const lines = text.split("\n");
  if (lines.length > MAX_LINES_TO_LOCATE) return undefined;
  for (let count = lines.length - 1; count >= 0; count--) {
    try {
      Bun.YAML.parse(lines.slice(0, count).join("\n"));
      return count + 1;
    } catch {
      // still inside or after the broken construct: try fewer lines
    }
  }
  return undefined;
}

/**
 * Where a JSON text stops being JSON, with a message that quotes none of it (Bun's quotes the
 * token it met, which could be a secret written without quotes).
 */
function jsonProblem(text: string): { message: string; line?: number } {
  try {
    readJsonExactly(text);
  } catch (error) {
    const found = /^JSON: (.*) at position (\d+)$/.exec((error as Error).message);
    if (found) {
      const position = Math.min(Number(found[2]), text.trimEnd().length);
      return { message: `not valid JSON (${found[1]})`, line: text.slice(0, position).split("\n").length };
    }
  }
  return { message: "not valid JSON" };
}

/** Parses a config file's text; `file` names it in errors. A byte order mark is ignored. */
export function parseConfigText(text: string, format: ConfigFormat, file: string): ConfigResult<unknown> {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (format === "json") {
    try {
      return success(JSON.parse(source));
    } catch {
      const { message, line } = jsonProblem(source);
      return failure([{ code: "syntax", file, ...(line === undefined ? {} : { line }), message }]);
    }
  }
  try {
    return success(Bun.YAML.parse(source));
  } catch (error) {
    const reason = (error as Error).message.replace(/^YAML Parse error: /, "");
    const line = yamlErrorLine(source);
    return failure([{ code: "syntax", file, ...(line === undefined ? {} : { line }), message: `not valid YAML (${reason})` }]);
  }
}

const READ_PROBLEMS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EISDIR: "it is a directory",
};

/** Why a file could not be read, in a few words. */
export function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (code && READ_PROBLEMS[code]) ?? (error as Error).message;
}

/** The error of a file whose extension says no format inlet reads. */
export function unknownFormat(path: string): ConfigResult<never> {
  const error: ConfigError = { code: "unknown_format", file: path, message: "a config file is YAML (.yaml, .yml) or JSON (.json), told by its extension" };
  return failure([error]);
}

/** Reads and parses a config file, its format by its extension. */
export function readConfigFile(path: string): ConfigResult<unknown> {
  const format = formatOf(path);
  if (format === null) return unknownFormat(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return failure([{ code: "unreadable_file", file: path, message: `cannot be read: ${readProblem(error)}` }]);
  }
  return parseConfigText(text, format, path);
}
