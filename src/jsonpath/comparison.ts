// RFC 9535 §2.3.5.2.2 comparisons. `undefined` is Nothing (an empty nodelist or a function's
// Nothing): it equals only itself and is ordered with nothing. Numbers compare by their exact
// values: a number a double cannot hold is an ExactNumber (README "Payload rules").
import type { ComparisonOp } from "./ast.ts";
import { compareNumbers, isJsonNumber } from "../json/decimal.ts";
import { ExactNumber } from "../json/exact_number.ts";

export function compare(op: ComparisonOp, left: unknown, right: unknown): boolean {
  switch (op) {
    case "==":
      return equal(left, right);
    case "!=":
      return !equal(left, right);
    case "<":
      return less(left, right);
    case "<=":
      return less(left, right) || equal(left, right);
    case ">":
      return less(right, left);
    case ">=":
      return less(right, left) || equal(left, right);
  }
}

/** Deep equality of JSON values (numbers by value, so 1 == 1.0 and 0 == -0). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof ExactNumber || b instanceof ExactNumber) return isJsonNumber(a) && isJsonNumber(b) && compareNumbers(a, b) === 0;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function less(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a < b;
  if (isJsonNumber(a) && isJsonNumber(b)) return compareNumbers(a, b) < 0;
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b) < 0;
  return false;
}

// Surrogates encode code points above U+FFFF, so they sort after U+E000..U+FFFF even though
// their UTF-16 code units are smaller.
function unitKey(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/** Orders strings by Unicode scalar values, as RFC 9535 requires (not by UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitKey(x) - unitKey(y);
  }
  return a.length - b.length;
}
