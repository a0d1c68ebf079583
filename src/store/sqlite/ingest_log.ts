import type { Statement } from "bun:sqlite";
import type { ActivityRecord } from "../../records/activity.ts";
import { DEFAULT_DESTINATION } from "../../records/destination.ts";
import type { IngestRecord } from "../../records/ingest.ts";
import type { RunRecord, RunReservation } from "../../records/run.ts";
import { countedMinute } from "../counted_activity.ts";
import type { IngestLog } from "../ingest_log.ts";
import { laneOf } from "../run_order.ts";
import type { SqliteConnection } from "./connection.ts";
import type { DedupKeys } from "./dedup_keys.ts";

/** The ingest pipeline's writes on SQLite: each rides the next grouped transaction (GroupCommit). */
export class SqliteIngestLog implements IngestLog {
  private readonly putRun: Statement;
  private readonly putActivity: Statement;
  private readonly addCount: Statement;

  constructor(
    private readonly connection: SqliteConnection,
    private readonly keys: DedupKeys,
  ) {
    this.putRun = connection.prepare(
      "INSERT INTO runs (id, trigger_id, request_id, status, trigger_json, result_json, attempts, error, created_at, finished_at, created_ms, replay_of, lane, ordering_key, destination, lease_owner, lease_until_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.putActivity = connection.prepare(
      "INSERT INTO activity (id, trigger_id, at, at_ms, request_id, outcome, run_id, detail, request_json, run_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.addCount = connection.prepare(
      `INSERT INTO activity (id, trigger_id, at, at_ms, request_id, outcome, run_id, detail, count, counted_minute) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
         ON CONFLICT (trigger_id, outcome, counted_minute, coalesce(detail, '')) WHERE counted_minute IS NOT NULL DO UPDATE SET count = count + excluded.count`,
    );
  }

  hasDedupKey(triggerId: string, keyHash: string, now: Date): Promise<boolean> {
    return this.connection.guard(() => this.keys.isLive(triggerId, keyHash, now.getTime()));
  }

  commitIngest(record: IngestRecord): Promise<{ deduplicated: boolean }> {
    return this.connection.write(() => this.applyIngest(record));
  }

  private applyIngest({ dedup, run, fanOut, activity, triggerJson: serialized, reservedFor }: IngestRecord): { deduplicated: boolean } {
    const at = Date.parse(activity.at);
    if (dedup) {
      // Claimed inside the write transaction: of two concurrent identical requests exactly one wins.
      if (!this.keys.claim(activity.triggerId, dedup.keyHash, at, at + dedup.windowSeconds * 1000)) {
        this.insertActivity({ ...activity, outcome: "deduplicated", runId: null });
        return { deduplicated: true };
      }
    }
    if (run) {
      const triggerJson = serialized ?? JSON.stringify(run.trigger);
      this.insertRun(run, triggerJson, reservedFor ?? null);
      // The other destinations' runs: the same $trigger, never reserved (nobody waits for them).
      for (const other of fanOut ?? []) this.insertRun(other, triggerJson, null);
    }
    this.insertActivity(activity);
    return { deduplicated: false };
  }

  private insertRun(run: RunRecord & { trigger: unknown }, triggerJson: string, reservedFor: RunReservation | null): void {
    this.putRun.run(
      run.id,
      run.triggerId,
      run.requestId,
      run.status,
      triggerJson,
      run.result === null || run.result === undefined ? null : JSON.stringify(run.result),
      run.attempts,
      run.error,
      run.createdAt,
      run.finishedAt,
      Date.parse(run.createdAt),
      run.replayOf ?? null,
      laneOf(run),
      run.orderingKey ?? null,
      run.destination ?? DEFAULT_DESTINATION,
      reservedFor?.owner ?? null,
      reservedFor?.untilMs ?? null,
    );
  }

  private insertActivity(row: ActivityRecord): void {
    const request = row.outcome === "filtered" && row.request !== undefined ? JSON.stringify(row.request) : null;
    const runIds = row.runIds && row.runIds.length > 1 ? JSON.stringify(row.runIds) : null;
    this.putActivity.run(row.id, row.triggerId, row.at, Date.parse(row.at), row.requestId, row.outcome, row.runId, row.detail, request, runIds);
  }

  recordActivity(row: ActivityRecord): Promise<void> {
    return this.connection.write(() => this.insertActivity(row));
  }

  countActivity(row: ActivityRecord): Promise<void> {
    return this.connection.write(() => {
      this.addCount.run(row.id, row.triggerId, row.at, Date.parse(row.at), row.requestId, row.outcome, row.detail, row.count ?? 1, countedMinute(row.at));
    });
  }
}
