import type { ActivityRecord } from "../records/activity.ts";
import type { IngestRecord } from "../records/ingest.ts";

/** What the ingest pipeline writes and asks: a dedup read, the grouped commit, lone and counted Activity rows. */
export interface IngestLog {
  /** Is this key recorded for the trigger and unexpired at `now`? (A fast read before the full pipeline.) */
  hasDedupKey(triggerId: string, keyHash: string, now: Date): Promise<boolean>;
  /** Commits an accepted request durably (grouped with others); resolves once on disk. */
  commitIngest(record: IngestRecord): Promise<{ deduplicated: boolean }>;
  /** Records a request's own Activity row that needs no run (auth failures, rejections); durable when it resolves. */
  recordActivity(row: ActivityRecord): Promise<void>;
  /**
   * Adds `row.count` requests (default 1) to the counted Activity row of `row`'s trigger, outcome,
   * clock minute (of `row.at`) and reason (`detail`); when that minute has none yet, `row` becomes
   * it (its id, time and request id). One such row per trigger, outcome, minute and reason, also
   * across instances on one database. Durable when it resolves.
   */
  countActivity(row: ActivityRecord): Promise<void>;
}
