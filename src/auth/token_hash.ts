import { sha256Hex } from "./digest.ts";
import { timingSafeEqual } from "./timing_safe_equal.ts";

/**
 * Constant-time check of a presented bearer token (the admin token, the metrics token) against
 * the SHA-256 (hex) of the one in force. Digests are compared, not tokens: the time taken says
 * nothing of the token's length or of where the two differ.
 */
export function tokenMatchesHash(presented: string, hash: string): boolean {
  return timingSafeEqual(sha256Hex(presented), hash);
}
