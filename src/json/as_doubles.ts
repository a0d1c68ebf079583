import { ExactNumber } from "./exact_number.ts";

/**
 * A copy of `value` in which every ExactNumber is the nearest double (`1e400` is Infinity): for
 * code that knows only plain numbers (a JSON Schema validator). Shares what holds none.
 */
export function asDoubles(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof ExactNumber) return Number(value.text);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = asDoubles(value[i]);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const next = asDoubles(item);
    if (next === item) continue;
    out ??= { ...value };
    // A plain assignment to "__proto__" would set the prototype instead of a member.
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}
