import type { Database, Statement } from "bun:sqlite";
import type { TransactionClaims } from "./connection.ts";
import { DedupIndex, EXPIRED_KEPT_MS, type Fingerprint } from "./dedup_index.ts";
import type { OpenedDatabase } from "./open_database.ts";

/** A dedup key in the index: its trigger and its hash. */
const indexKey = (triggerId: string, keyHash: string) => `${triggerId}\u0000${keyHash}`;

/**
 * The dedup keys: rows keyed by expiry first, so a claim is appended where keys of its window
 * length end (not written on a random leaf), and an in-memory index of the live keys
 * (DedupIndex), loaded from those rows, that says whether a key is new; a match is confirmed on
 * its row. A key claimed inside a write transaction joins the index once that transaction has
 * committed (TransactionClaims), never before. The index is the one authority only while one
 * process claims keys: `inlet serve` holds the data dir's serve lock (serve_lock.ts).
 */
export class DedupKeys implements TransactionClaims {
  private readonly db: Database;
  private readonly keyRow: Statement;
  private readonly putKey: Statement;
  private index: DedupIndex | null = null;
  /**
   * The claims of the open write transaction, in order (a savepoint's rollback drops those made
   * after it): indexed once the transaction commits. A batch holds at most 64 requests.
   */
  private claims: Array<{ key: string; expiresMs: number; atMs: number }> = [];

  constructor(
    opened: OpenedDatabase,
    /** The index's fingerprint of a key (tests make keys collide); default wyhash. */
    private readonly fingerprint: Fingerprint | undefined,
  ) {
    this.db = opened.db;
    this.keyRow = opened.statements.prepare("SELECT 1 FROM dedup_keys WHERE expires_ms = ? AND trigger_id = ? AND key_hash = ?");
    this.putKey = opened.statements.prepare("INSERT INTO dedup_keys (expires_ms, trigger_id, key_hash) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
  }

  begin(): void {
    this.claims = [];
  }

  mark(): number {
    return this.claims.length;
  }

  rollBackTo(mark: number): void {
    this.claims.length = mark;
  }

  discard(): void {
    this.claims = [];
  }

  committed(): void {
    const claims = this.claims;
    this.claims = [];
    if (claims.length === 0) return;
    // What a rebuild may drop is judged from the latest arrival among them.
    const latestMs = Math.max(...claims.map((c) => c.atMs));
    const index = this.loaded();
    for (const c of claims) index.add(c.key, c.expiresMs, latestMs);
  }

  /** The index of live dedup keys, loaded from their rows on first use. */
  loaded(): DedupIndex {
    if (this.index) return this.index;
    const index = new DedupIndex(this.fingerprint);
    const from = Date.now() - EXPIRED_KEPT_MS;
    const rows = this.db.query<{ trigger_id: string; key_hash: string; expires_ms: number }, [number]>(
      "SELECT trigger_id, key_hash, expires_ms FROM dedup_keys WHERE expires_ms > ?",
    );
    for (const row of rows.iterate(from)) index.add(indexKey(row.trigger_id, row.key_hash), row.expires_ms, from);
    rows.finalize();
    return (this.index = index);
  }

  /** Is the key claimed and unexpired at `atMs`? */
  isLive(triggerId: string, keyHash: string, atMs: number): boolean {
    return this.liveAt(indexKey(triggerId, keyHash), triggerId, keyHash, atMs);
  }

  /** Each index match is confirmed on its row. */
  private liveAt(key: string, triggerId: string, keyHash: string, atMs: number): boolean {
    for (const expiresMs of this.loaded().candidates(key, atMs)) {
      if (this.keyRow.get(expiresMs, triggerId, keyHash) !== null) return true;
    }
    return false;
  }

  /** Claims a dedup key inside the write transaction; false when it is live at `atMs` (a duplicate). */
  claim(triggerId: string, keyHash: string, atMs: number, expiresMs: number): boolean {
    const key = indexKey(triggerId, keyHash);
    // Claimed earlier in this transaction (not in the index yet), or before it.
    if (this.claims.some((c) => c.key === key && c.expiresMs > atMs) || this.liveAt(key, triggerId, keyHash, atMs)) return false;
    // A row already there with this very expiry is the same claim: a duplicate too.
    if (this.putKey.run(expiresMs, triggerId, keyHash).changes === 0) return false;
    this.claims.push({ key, expiresMs, atMs });
    return true;
  }

  /**
   * The index's entries (live keys, and expired ones until its next rebuild) and the bytes its
   * table takes, without loading it: it has no cap, so a long window at a high rate is watched
   * here (README).
   */
  gauges(): Record<string, number> {
    const index = this.index;
    return { inlet_dedup_index_keys: index?.size ?? 0, inlet_dedup_index_bytes: index?.bytes ?? 0 };
  }
}
