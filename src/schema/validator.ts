import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { linearRegex } from "../regex/linear_regex.ts";
import { patternProblem, testPatterns } from "./patterns.ts";

/** One problem with a body or a schema, located by JSON pointer. */
export interface SchemaDetail {
  path: string;
  message: string;
}

/** At most this many details go back to a sender (docs/api.md#json-schema). */
export const MAX_DETAILS = 20;
/** A schema document's JSON text may be this long at most. */
export const MAX_SCHEMA_BYTES = 256 * 1024;
/** Validation passes before the pattern answers must have settled (each pass only adds answers). */
const MAX_PASSES = 8;

/**
 * The pattern answers of the validation running now. Ajv validates synchronously, so while one
 * validation runs no other can: its patterns consult this, never the host's regex engine.
 */
let answering: PatternAnswers | null = null;

/** Answered like every sandbox failure (500 "pre-execution check failed"): the body was not validated. */
export class PatternsUnsettled extends Error {
  override name = "PatternsUnsettled";
  readonly code = "sandbox_schema_unsettled";
}

/** What patterns answered for one validation; a question without an answer is noted and answered "matches" for now. */
class PatternAnswers {
  readonly known = new Map<string, Map<string, boolean>>();
  asked = new Map<string, string[]>();

  answer(pattern: string, value: string): boolean {
    const known = this.known.get(pattern)?.get(value);
    if (known !== undefined) return known;
    const list = this.asked.get(pattern) ?? [];
    if (!this.asked.has(pattern)) this.asked.set(pattern, list);
    list.push(value);
    return true;
  }

  /** Asks the sandbox everything noted in the last pass, in one call. */
  async settle(): Promise<void> {
    const asked = new Map([...this.asked].map(([p, values]) => [p, [...new Set(values)]]));
    this.asked = new Map();
    for (const [pattern, results] of await testPatterns(asked)) {
      const values = asked.get(pattern)!;
      const known = this.known.get(pattern) ?? new Map<string, boolean>();
      this.known.set(pattern, known);
      results.forEach((matched, i) => known.set(values[i], matched));
    }
  }
}

/**
 * Ajv's regex engine for schema patterns: a pattern in I-Regexp's syntax runs on the linear
 * engine; any other's every test goes to the current validation's answers (the sandbox).
 */
const sandboxedRegExp = Object.assign(
  (pattern: string) => {
    const linear = linearRegex(pattern, "ecmascript");
    return {
      test(value: string): boolean {
        if (linear) return linear.test(value);
        if (!answering) throw new Error("a schema pattern was tested outside a sandboxed validation");
        return answering.answer(pattern, value);
      },
      // Ajv keys its compiled patterns by this text: it must differ per pattern.
      toString: () => `/${pattern}/u`,
    };
  },
  { code: "inletSandboxedRegExp" },
);

function newAjv() {
  // strict: false accepts unknown keywords (JSON Schema ignores them); formats are annotations
  // in 2020-12; allErrors gives the sender every problem (up to MAX_DETAILS).
  return new Ajv2020({ strict: false, allErrors: true, validateFormats: false, code: { regExp: sandboxedRegExp } });
}

/** A body's problems, by path. */
function detailsOf(errors: ErrorObject[] | null | undefined): SchemaDetail[] {
  const out: SchemaDetail[] = [];
  for (const error of errors ?? []) {
    const missing = error.keyword === "required" ? (error.params as { missingProperty?: string }).missingProperty : undefined;
    const path = missing === undefined ? error.instancePath : `${error.instancePath}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const message = missing === undefined ? (error.message ?? error.keyword) : "is required";
    // JSON Pointer (RFC 6901): the whole body is "", as in every other `details`; "/" would name a key "".
    if (!out.some((d) => d.path === path && d.message === message)) out.push({ path, message });
    if (out.length === MAX_DETAILS) break;
  }
  return out;
}

/**
 * A trigger's JSON Schema (2020-12), compiled once. A `pattern` or `patternProperties` key in
 * I-Regexp's syntax runs on the linear engine; every other runs in the sandbox: validation runs
 * with answers it has, notes the questions it has not, asks the sandbox all of them in one call,
 * and validates again until nothing new is asked.
 */
export class CompiledSchema {
  private readonly validateFn: ValidateFunction;

  constructor(document: unknown) {
    this.validateFn = newAjv().compile(document as object);
  }

  /** The body's problems (at most 20), or none; throws a sandbox error when a pattern cannot finish. */
  async validate(body: unknown): Promise<SchemaDetail[]> {
    const answers = new PatternAnswers();
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      answering = answers;
      let valid: boolean;
      try {
        valid = this.validateFn(body) as boolean;
      } finally {
        answering = null;
      }
      if (answers.asked.size === 0) return valid ? [] : detailsOf(this.validateFn.errors);
      await answers.settle();
    }
    throw new PatternsUnsettled(`schema patterns did not settle within ${MAX_PASSES} validation passes`);
  }
}

/**
 * Whether validating against `document` needs no sandbox: every pattern it holds runs on the
 * linear engine (its cost is bounded by the body's size, as `checkSchemaDocument` ensures), so
 * it may validate on the thread that answers requests.
 */
export function validatesWithoutSandbox(document: unknown): boolean {
  let linear = true;
  walk(document, "", (schema) => {
    if (typeof schema.pattern === "string" && !linearRegex(schema.pattern, "ecmascript")) linear = false;
    if (schema.patternProperties && typeof schema.patternProperties === "object") {
      for (const key of Object.keys(schema.patternProperties)) if (!linearRegex(key, "ecmascript")) linear = false;
    }
  });
  return linear;
}

const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/** Walks a schema document, calling `visit` with each subschema object and its JSON pointer. */
function walk(node: unknown, path: string, visit: (schema: Record<string, unknown>, path: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walk(item, `${path}/${i}`, visit));
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  visit(schema, path);
  for (const [key, value] of Object.entries(schema)) {
    // `const`, `enum`, `default` and `examples` hold data, not schemas.
    if (key === "const" || key === "enum" || key === "default" || key === "examples") continue;
    walk(value, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, visit);
  }
}

/**
 * Checks a schema document at save time: a valid JSON Schema 2020-12 document that compiles,
 * whose patterns compile in the engine that runs them, and whose cost is bounded by the body's
 * size. Returns the problems with paths under `base` (empty when it is fine).
 */
export function checkSchemaDocument(document: unknown, base = "/schema/document"): SchemaDetail[] {
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    return [{ path: base, message: 'must be a JSON Schema object (2020-12), for example {"type":"object","required":["id"]}' }];
  }
  const size = JSON.stringify(document).length;
  if (size > MAX_SCHEMA_BYTES) return [{ path: base, message: `is ${size} bytes of JSON; at most ${MAX_SCHEMA_BYTES} are allowed` }];
  const declared = (document as { $schema?: unknown }).$schema;
  if (declared !== undefined && declared !== "https://json-schema.org/draft/2020-12/schema") {
    return [
      {
        path: `${base}/$schema`,
        message: `inlet validates JSON Schema 2020-12: leave $schema out or set it to "https://json-schema.org/draft/2020-12/schema" (got ${JSON.stringify(declared)})`,
      },
    ];
  }
  const problems: SchemaDetail[] = [];
  walk(document, base, (schema, path) => {
    if (typeof schema.pattern === "string") {
      const problem = patternProblem(schema.pattern);
      if (problem) problems.push({ path: `${path}/pattern`, message: `is not a valid regular expression: ${problem}` });
    }
    if (schema.patternProperties && typeof schema.patternProperties === "object") {
      for (const key of Object.keys(schema.patternProperties)) {
        const problem = patternProblem(key);
        if (problem) problems.push({ path: `${path}/patternProperties`, message: `key ${JSON.stringify(key)} is not a valid regular expression: ${problem}` });
      }
    }
    if (schema.uniqueItems === true) {
      const items = schema.items as { type?: unknown } | undefined;
      const types = items && (Array.isArray(items.type) ? items.type : [items.type]);
      if (!types || !types.every((t) => typeof t === "string" && SCALAR_TYPES.has(t))) {
        problems.push({
          path: `${path}/uniqueItems`,
          message:
            "is checked only for arrays of scalars: give items a type of string, number, integer, boolean or null (comparing objects pairwise would cost the square of the body's size)",
        });
      }
    }
  });
  if (problems.length) return problems;
  const ajv = newAjv();
  if (!ajv.validateSchema(document as object)) {
    // The meta-schema's unions report each branch; the first error per path says it best.
    const byPath = new Map<string, string>();
    for (const e of ajv.errors ?? []) {
      const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
      const message = allowed ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}` : (e.message ?? e.keyword);
      if (!byPath.has(e.instancePath)) byPath.set(e.instancePath, message);
    }
    return [...byPath].slice(0, MAX_DETAILS).map(([path, message]) => ({ path: `${base}${path}`, message }));
  }
  try {
    ajv.compile(document as object);
  } catch (error) {
    return [{ path: base, message: `does not compile: ${(error as Error).message}` }];
  }
  return [];
}
