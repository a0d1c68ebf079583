import type { Statement } from "bun:sqlite";
import { SWEEP_CHUNK, type Maintenance, type SweepCounts } from "../maintenance.ts";
import { sweepInChunks } from "../sweep_in_chunks.ts";
import type { SqliteConnection } from "./connection.ts";
import type { DedupKeys } from "./dedup_keys.ts";

/**
 * What the sweep deletes, one chunk at a time (`?` = the cut-off, then the chunk size), each found
 * through its own index: expired keys by expiry, Activity by arrival, finished runs by creation
 * time (`INDEXED BY`: never through their status, which would read every finished run).
 */
export const SWEEP_SQL = {
  dedupKeys:
    "DELETE FROM dedup_keys WHERE (expires_ms, trigger_id, key_hash) IN (SELECT expires_ms, trigger_id, key_hash FROM dedup_keys WHERE expires_ms <= ? LIMIT ?)",
  activity: "DELETE FROM activity WHERE seq IN (SELECT seq FROM activity WHERE at_ms < ? LIMIT ?)",
  runs: "DELETE FROM runs WHERE seq IN (SELECT seq FROM runs INDEXED BY runs_by_age WHERE created_ms < ? AND status IN ('succeeded', 'failed') LIMIT ?)",
  // A row per alert transition: few enough to read whole.
  notifications: "DELETE FROM alert_outbox WHERE seq IN (SELECT seq FROM alert_outbox WHERE delivered_at IS NOT NULL AND delivered_at < ? LIMIT ?)",
} as const;

/** The SQLite store's own life: readiness, serving, the retention sweep, closing. */
export class SqliteMaintenance implements Omit<Maintenance, "kind"> {
  private readonly sweepChunk: number;
  private readonly sweepKeys: Statement;
  private readonly sweepActivity: Statement;
  private readonly sweepRuns: Statement;
  private readonly sweepNotifications: Statement;

  constructor(
    private readonly connection: SqliteConnection,
    private readonly keys: DedupKeys,
    /** Rows the sweep deletes per table per transaction (SWEEP_CHUNK by default). */
    sweepChunk: number | undefined,
  ) {
    this.sweepChunk = Math.max(1, sweepChunk ?? SWEEP_CHUNK);
    this.sweepKeys = connection.prepare(SWEEP_SQL.dedupKeys);
    this.sweepActivity = connection.prepare(SWEEP_SQL.activity);
    this.sweepRuns = connection.prepare(SWEEP_SQL.runs);
    this.sweepNotifications = connection.prepare(SWEEP_SQL.notifications);
  }

  async ping(): Promise<boolean> {
    // A failed WAL flush stops every write until a restart (WalSync): not ready.
    if (this.connection.refusesWrites()) return false;
    try {
      this.connection.db.query("SELECT 1").get();
      return true;
    } catch {
      return false;
    }
  }

  /** For `inlet serve`: loads the dedup index before the first request needs it. */
  async beginServing(): Promise<void> {
    this.keys.loaded();
  }

  /** The dedup index's size (DedupKeys.gauges). */
  memoryGauges(): Record<string, number> {
    return this.keys.gauges();
  }

  /** Deletes in chunks (SWEEP_CHUNK rows per table per transaction), yielding to requests between them. */
  sweep(now: Date, olderThan: Date): Promise<SweepCounts> {
    const size = this.sweepChunk;
    const chunk = () =>
      this.connection.change(() =>
        this.connection.db
          .transaction(() => ({
            dedupKeys: this.sweepKeys.run(now.getTime(), size).changes,
            activity: this.sweepActivity.run(olderThan.getTime(), size).changes,
            runs: this.sweepRuns.run(olderThan.getTime(), size).changes,
            notifications: this.sweepNotifications.run(olderThan.toISOString(), size).changes,
          }))
          .immediate(),
      );
    return sweepInChunks(
      size,
      chunk,
      () => this.connection.closed,
      () => new Promise((resolve) => setImmediate(resolve)),
    );
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
