/**
 * JSON numbers kept exactly (README "Payload rules"): a number a double cannot hold is an
 * ExactNumber of its text, stored and delivered as sent and compared by its exact value. Pure
 * ES2023 with no imports from outside this folder, so the JSONPath engine carries it into QuickJS.
 *
 * @module
 */
export { asDoubles } from "./as_doubles.ts";
export { compareNumbers, isExactDouble, isJsonNumber, jsonNumber, numberText } from "./decimal.ts";
export { ExactNumber } from "./exact_number.ts";
export { mayHoldInexactNumbers } from "./inexact_numbers.ts";
export { jsonText } from "./json_text.ts";
export { parseJson, parseJsonCounting, parseJsonExactly } from "./parse_json.ts";
export type { ReadJson } from "./json_reader.ts";
