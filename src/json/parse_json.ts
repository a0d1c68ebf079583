import { isExactDouble } from "./decimal.ts";
import { ExactNumber } from "./exact_number.ts";
import { mayHoldInexactNumbers } from "./inexact_numbers.ts";
import { readJsonExactly, type ReadJson } from "./json_reader.ts";

type SourceReviver = (key: string, value: unknown, context: { source?: string }) => unknown;

/** Whether this engine's JSON.parse hands a reviver each primitive's source text (Bun does, QuickJS does not). */
const GIVES_SOURCE = (() => {
  let given = false;
  try {
    (JSON.parse as (text: string, reviver: SourceReviver) => unknown)("1", (_key, value, context) => ((given = context?.source === "1"), value));
  } catch {
    // an engine that refuses a third parameter reads with readJsonExactly
  }
  return given;
})();

/**
 * Parses a JSON text like `JSON.parse`, except that a number a double cannot hold exactly
 * (`9007199254740993`, `1e400`) becomes an ExactNumber of its text; with `exactNumbers`, how many
 * did. Throws JSON.parse's SyntaxError when the text is not JSON. Only a text that may hold such
 * a number (see `mayHoldInexactNumbers`) costs more than `JSON.parse`.
 *
 * @example
 * ```ts
 * parseJsonCounting('{"id":9007199254740993,"n":1}');
 * // { value: { id: ExactNumber { text: "9007199254740993" }, n: 1 }, exactNumbers: 1 }
 * ```
 */
export function parseJsonCounting(text: string): ReadJson {
  return mayHoldInexactNumbers(text) ? parseJsonExactly(text) : { value: JSON.parse(text), exactNumbers: 0 };
}

/**
 * `parseJsonCounting` without the scan, for a text already known to may hold such numbers: in
 * QuickJS, the scan costs several times the parse, so the host scans and says (see
 * src/filter/guest.ts).
 */
export function parseJsonExactly(text: string): ReadJson {
  if (!GIVES_SOURCE) return readJsonExactly(text);
  let exactNumbers = 0;
  const value = (JSON.parse as (text: string, reviver: SourceReviver) => unknown)(text, (_key, value, context) => {
    if (typeof value !== "number" || isExactDouble(context.source!, value)) return value;
    exactNumbers++;
    return new ExactNumber(context.source!);
  });
  return { value, exactNumbers };
}

/**
 * `parseJsonCounting`'s value: `JSON.parse` that keeps every number exactly.
 *
 * @example
 * ```ts
 * JSON.stringify(parseJson("[1e400, 0.1]")); // "[1e400,0.1]"
 * ```
 */
export function parseJson(text: string): unknown {
  return parseJsonCounting(text).value;
}
