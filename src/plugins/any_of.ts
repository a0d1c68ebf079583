import { timingSafeEqual } from "../auth/timing_safe_equal.ts";

/**
 * `true` when any candidate equals `expected`, comparing every candidate in constant time so
 * the time taken does not reveal which one matched (or how many were sent). For headers that
 * carry several signatures while a provider rolls its secret.
 *
 * @example
 * ```ts
 * timingSafeAnyOf(["a1b2", "c3d4"], expectedHex); // true when either matches
 * timingSafeAnyOf([], expectedHex);              // false
 * ```
 */
export function timingSafeAnyOf(candidates: Iterable<string | Uint8Array>, expected: string | Uint8Array): boolean {
  let ok = false;
  for (const candidate of candidates) if (timingSafeEqual(candidate, expected)) ok = true;
  return ok;
}
