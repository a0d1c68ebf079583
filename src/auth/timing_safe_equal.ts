import { timingSafeEqual as nodeTimingSafeEqual } from "node:crypto";

const encoder = new TextEncoder();

function bytesOf(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? encoder.encode(value) : value;
}

/**
 * Constant-time equality of two strings (UTF-8) or byte arrays of any lengths.
 *
 * The time taken depends only on the length of `b` (the expected value), never on where the
 * inputs first differ, so pass the secret or computed digest as `b`.
 *
 * @example
 * ```ts
 * timingSafeEqual("sha256=abc", "sha256=abc"); // true
 * timingSafeEqual("short", "longer value");    // false
 * ```
 */
export function timingSafeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = bytesOf(a);
  const right = bytesOf(b);
  if (left.length === right.length) return nodeTimingSafeEqual(left, right);
  // Compare right against itself so a length mismatch costs the same as a full comparison.
  nodeTimingSafeEqual(right, right);
  return false;
}
