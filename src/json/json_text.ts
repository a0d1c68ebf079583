import { ExactNumber } from "./exact_number.ts";

/** Whether `JSON.stringify` writes an ExactNumber's text (it does where `JSON.rawJSON` exists). */
const WRITES_EXACTLY = JSON.stringify([new ExactNumber("1e400")]) === "[1e400]";

/**
 * `JSON.stringify(value)` that writes every ExactNumber as its text, also on engines without
 * `JSON.rawJSON` (QuickJS). For JSON values (no `toJSON` of their own, no functions).
 *
 * @example
 * ```ts
 * jsonText({ id: new ExactNumber("9007199254740993") }); // '{"id":9007199254740993}'
 * ```
 */
export function jsonText(value: unknown): string | undefined {
  return WRITES_EXACTLY ? JSON.stringify(value) : write(value);
}

/** @internal jsonText where the engine has no `JSON.rawJSON`; exported for tests. */
export function write(value: unknown): string | undefined {
  if (value instanceof ExactNumber) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? "null").join(",")}]`;
  const members: string[] = [];
  for (const key of Object.keys(value)) {
    const text = write((value as Record<string, unknown>)[key]);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}
