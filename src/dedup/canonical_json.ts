import { ExactNumber, numberText } from "../json/index.ts";

/**
 * JSON with object keys sorted at every depth, so logically equal values give the same text
 * (how expression dedup keys and ordering keys compare). A number a double cannot hold is written
 * with all its digits (`numberText`): two different large ids are never one key.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (value instanceof ExactNumber) return numberText(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}
