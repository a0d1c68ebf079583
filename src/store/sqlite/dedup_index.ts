/** A key's 64-bit fingerprint (wyhash): equal keys have equal fingerprints; unequal ones almost never do. */
export type Fingerprint = (key: string) => bigint;

const wyhash: Fingerprint = (key) => BigInt(Bun.hash(key));

/** No expiry: a slot never used. Expiries are epoch milliseconds, so never 0. */
const EMPTY = 0;
const MIN_CAPACITY = 1024;
/**
 * How long past its expiry an entry is kept when the table is rebuilt: a request's arrival time
 * (the `now` a key is judged live at) may lie somewhat before the moment its claim is made.
 */
export const EXPIRED_KEPT_MS = 5 * 60_000;
const NONE: readonly number[] = Object.freeze([]);

/**
 * The SQLite store's index of live dedup keys, in memory: an open-addressing hash table of
 * 64-bit fingerprints and expiries in typed arrays (16 bytes a slot, at most half the slots
 * used: 32–64 bytes per live key). It answers "is this key new?" without touching the database,
 * so a claim's row can be appended in expiry order instead of landing on a random leaf of a
 * B-tree. A fingerprint match is only a candidate: the store confirms it against the key's row
 * (`candidates` gives each matching entry's expiry, which with the key names that row), so two
 * keys that share a fingerprint are still told apart.
 *
 * Expired entries stay until the table is next rebuilt (when half its slots are used), which
 * drops those expired more than EXPIRED_KEPT_MS ago and sizes the table to what is left.
 */
export class DedupIndex {
  private hi!: Uint32Array;
  private lo!: Uint32Array;
  private expires!: Float64Array;
  private mask = 0;
  /** Slots not EMPTY. */
  private used = 0;

  constructor(private readonly fingerprint: Fingerprint = wyhash) {
    this.allocate(MIN_CAPACITY);
  }

  /** Slots in the table (a power of two). */
  get capacity(): number {
    return this.mask + 1;
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.used;
  }

  /** Bytes the table's arrays take (16 per slot; a rebuild briefly holds the old table too). */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.expires.byteLength;
  }

  /** The expiries of entries live at `nowMs` whose fingerprint is `key`'s: usually none, one for a seen key. */
  candidates(key: string, nowMs: number): readonly number[] {
    const fp = this.fingerprint(key);
    const hi = Number(BigInt.asUintN(32, fp >> 32n));
    const lo = Number(BigInt.asUintN(32, fp));
    let found: number[] | null = null;
    for (let i = lo & this.mask; ; i = (i + 1) & this.mask) {
      const expires = this.expires[i];
      if (expires === EMPTY) return found ?? NONE;
      if (expires > nowMs && this.lo[i] === lo && this.hi[i] === hi) (found ??= []).push(expires);
    }
  }

  /** Records `key` until `expiresMs`; `nowMs` (the claim's time) decides what a rebuild may drop. */
  add(key: string, expiresMs: number, nowMs: number): void {
    if (!(expiresMs > EMPTY)) throw new RangeError(`a dedup key's expiry must be a positive epoch time, not ${expiresMs}`);
    if ((this.used + 1) * 2 > this.capacity) this.rebuild(nowMs - EXPIRED_KEPT_MS);
    const fp = this.fingerprint(key);
    this.put(Number(BigInt.asUintN(32, fp >> 32n)), Number(BigInt.asUintN(32, fp)), expiresMs);
  }

  private put(hi: number, lo: number, expires: number): void {
    let i = lo & this.mask;
    while (this.expires[i] !== EMPTY) i = (i + 1) & this.mask;
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.expires[i] = expires;
    this.used++;
  }

  private allocate(capacity: number): void {
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.expires = new Float64Array(capacity);
    this.mask = capacity - 1;
    this.used = 0;
  }

  /** Keeps the entries expiring after `cutoffMs`, in a table a quarter full at most. */
  private rebuild(cutoffMs: number): void {
    const { hi, lo, expires } = this;
    let kept = 0;
    for (let i = 0; i < expires.length; i++) if (expires[i] > cutoffMs) kept++;
    let capacity = MIN_CAPACITY;
    while (capacity < (kept + 1) * 4) capacity *= 2;
    this.allocate(capacity);
    for (let i = 0; i < expires.length; i++) if (expires[i] > cutoffMs) this.put(hi[i], lo[i], expires[i]);
  }
}
