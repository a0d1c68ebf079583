import { SWEEP_CHUNK, type Maintenance, type SweepCounts } from "../maintenance.ts";
import { sweepInChunks } from "../sweep_in_chunks.ts";
import type { PostgresConnection } from "./connection.ts";
import { withinDeadline } from "./deadline.ts";

/** The PostgreSQL store's own life: readiness, the retention sweep, closing. */
export class PostgresMaintenance implements Omit<Maintenance, "kind"> {
  private readonly sweepChunk: number;

  constructor(
    private readonly connection: PostgresConnection,
    /** Writes still grouped for a commit: settled before the pool closes. */
    private readonly pending: { drain(): Promise<void> },
    /** Rows the sweep deletes per table per statement (SWEEP_CHUNK by default). */
    sweepChunk: number | undefined,
  ) {
    this.sweepChunk = Math.max(1, sweepChunk ?? SWEEP_CHUNK);
  }

  /** /readyz: answers within 2 s either way. */
  async ping(): Promise<boolean> {
    if (this.connection.closed) return false;
    return withinDeadline(2000, this.connection.sql`SELECT 1`).then(
      () => true,
      () => false,
    );
  }

  /**
   * Deletes in chunks, each its own statement. Rows another instance's sweep holds are skipped
   * (SKIP LOCKED): instances sweeping at once share the work instead of waiting on each other.
   */
  sweep(now: Date, olderThan: Date): Promise<SweepCounts> {
    const chunk = this.sweepChunk;
    const expired = now.getTime();
    const cutOff = olderThan.getTime();
    const one = () =>
      this.connection.guard(async (sql) => ({
        dedupKeys: (
          await sql`DELETE FROM dedup_keys WHERE (trigger_id, key_hash) IN (SELECT trigger_id, key_hash FROM dedup_keys WHERE expires_ms <= ${expired} LIMIT ${chunk} FOR UPDATE SKIP LOCKED)`
        ).count,
        activity: (await sql`DELETE FROM activity WHERE seq IN (SELECT seq FROM activity WHERE at_ms < ${cutOff} LIMIT ${chunk} FOR UPDATE SKIP LOCKED)`).count,
        runs: (
          await sql`DELETE FROM runs WHERE seq IN (SELECT seq FROM runs WHERE created_ms < ${cutOff} AND status IN ('succeeded', 'failed') LIMIT ${chunk} FOR UPDATE SKIP LOCKED)`
        ).count,
        notifications: (
          await sql`DELETE FROM alert_outbox WHERE seq IN (SELECT seq FROM alert_outbox WHERE delivered_at IS NOT NULL AND delivered_at < ${olderThan.toISOString()} LIMIT ${chunk} FOR UPDATE SKIP LOCKED)`
        ).count,
      }));
    return sweepInChunks(chunk, one, () => this.connection.closed);
  }

  async close(): Promise<void> {
    if (this.connection.closed) return;
    await this.pending.drain();
    await this.connection.close();
  }
}
