import type { ActivityRecord } from "../../records/activity.ts";
import type { IngestRecord } from "../../records/ingest.ts";
import { StoreUnavailable } from "../errors.ts";
import { AsyncGroupCommit } from "../group_commit.ts";
import type { IngestLog } from "../ingest_log.ts";
import type { PostgresConnection } from "./connection.ts";
import { COUNT_BATCH_SQL, countBatch } from "./count_batch.ts";
import { batchItems, INGEST_BATCH_SQL, RETRYABLE_BATCH_ERRORS } from "./ingest_batch.ts";

/** The ingest pipeline's writes on PostgreSQL: grouped into few statements (INGEST_BATCH_SQL, COUNT_BATCH_SQL). */
export class PostgresIngestLog implements IngestLog {
  private readonly group: AsyncGroupCommit<IngestRecord, { deduplicated: boolean }>;
  /**
   * Counted Activity rows, grouped like ingest commits: a flood of refusals is a few statements,
   * each of a few rows (a batch is merged by counted row first, so it may be large).
   */
  private readonly counts: AsyncGroupCommit<ActivityRecord, void>;

  constructor(
    private readonly connection: PostgresConnection,
    /** Benchmark knob: false commits every request in its own statement. */
    groupCommit: boolean | undefined,
  ) {
    this.group = new AsyncGroupCommit((items) => this.commitBatch(items), groupCommit === false ? 1 : 256, groupCommit === false ? 64 : 2);
    this.counts = new AsyncGroupCommit((rows) => this.countBatch(rows), 4096, 1);
  }

  hasDedupKey(triggerId: string, keyHash: string, now: Date): Promise<boolean> {
    return this.connection.guard(
      async (sql) =>
        (await sql`SELECT 1 FROM dedup_keys WHERE trigger_id = ${triggerId} AND key_hash = ${keyHash} AND expires_ms > ${now.getTime()}`).length > 0,
    );
  }

  commitIngest(record: IngestRecord): Promise<{ deduplicated: boolean }> {
    if (this.connection.closed) return Promise.reject(new StoreUnavailable("the store is closed"));
    return this.group.submit(record);
  }

  recordActivity(row: ActivityRecord): Promise<void> {
    return this.commitIngest({ dedup: null, run: null, activity: row }).then(() => undefined);
  }

  countActivity(row: ActivityRecord): Promise<void> {
    if (this.connection.closed) return Promise.reject(new StoreUnavailable("the store is closed"));
    return this.counts.submit(row);
  }

  /** Resolves once every commit and count asked for so far has settled (before the pool closes). */
  async drain(): Promise<void> {
    await Promise.all([this.group.drain(), this.counts.drain()]);
  }

  private async countBatch(rows: ActivityRecord[]): Promise<void[]> {
    const payload = countBatch(rows);
    await this.connection.guard(async (sql) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await sql.unsafe(COUNT_BATCH_SQL, [payload]);
        } catch (error) {
          // Nothing of a statement that hit a deadlock was written: again.
          if (attempt < 3 && RETRYABLE_BATCH_ERRORS.has((error as { errno?: string })?.errno ?? "")) continue;
          throw error;
        }
      }
    });
    return rows.map(() => undefined);
  }

  private async commitBatch(records: IngestRecord[]): Promise<Array<{ deduplicated: boolean }>> {
    const items = batchItems(records);
    const payload = JSON.stringify(items);
    const rows: Array<{ i: number }> = await this.connection.guard(async (sql) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await sql.unsafe(INGEST_BATCH_SQL, [payload]);
        } catch (error) {
          // Nothing of a batch that hit a deadlock or serialization failure was written: again.
          if (attempt < 3 && RETRYABLE_BATCH_ERRORS.has((error as { errno?: string })?.errno ?? "")) continue;
          throw error;
        }
      }
    });
    const won = new Set(rows.map((r) => r.i));
    return items.map((item) => ({ deduplicated: !won.has(item.i) }));
  }
}
