import { jsonResponse } from "../net/answers.ts";
import { formatAddress } from "../net/client_address.ts";

/** Failed authentications one client address may make in a clock minute before the rest are 429. */
export const FAILED_AUTH_LIMIT = 20;
/** Addresses counted one by one in a minute; past them, new addresses share one counter. */
const MAX_ADDRESSES = 10_000;
const MINUTE_MS = 60_000;
/** The counter of addresses that are unknown (no peer) or past MAX_ADDRESSES. */
const SHARED = "*";

/**
 * Slows down guessing the admin token (README "Admin authentication and the server's own
 * secrets"): per client address and clock minute, the first FAILED_AUTH_LIMIT failed
 * authentications are answered as usual (401); the later ones of that minute get 429 with
 * `Retry-After` up to the minute's end. Only failures are counted and refused: a correct token
 * always passes, so the block never locks out whoever holds it.
 *
 * Memory is bounded: only the current minute's counters are kept (dropped when the minute
 * changes), and at most MAX_ADDRESSES of them; addresses beyond share one counter, which makes
 * spreading guesses over many addresses no better than MAX_ADDRESSES + 1 of them.
 */
export class AdminAuthThrottle {
  private minute = -1;
  private failures = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limit = FAILED_AUTH_LIMIT,
    private readonly maxAddresses = MAX_ADDRESSES,
  ) {}

  /**
   * Counts a failed authentication from `address` (null: unknown); the 429 to answer it with
   * once the address is past the limit this minute, else null (answer the usual 401).
   */
  failed(address: Uint8Array | null): Response | null {
    const now = this.now();
    const minute = Math.floor(now / MINUTE_MS);
    if (minute !== this.minute) {
      this.minute = minute;
      this.failures = new Map();
    }
    let key = address === null ? SHARED : formatAddress(address);
    if (!this.failures.has(key) && this.failures.size >= this.maxAddresses) key = SHARED;
    const count = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, count);
    if (count <= this.limit) return null;
    const retryAfter = Math.max(1, Math.ceil(((minute + 1) * MINUTE_MS - now) / 1000));
    return jsonResponse(429, { error: "too many requests" }, { "Retry-After": String(retryAfter) });
  }

  /** How many addresses are counted this minute (for tests of the bound). */
  get size(): number {
    return this.failures.size;
  }
}
