import { join } from "node:path";
import type { ActivityRecord } from "../../records/activity.ts";
import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../../records/alert.ts";
import type { IngestRecord, ReplayCandidate, ReplayQuery } from "../../records/ingest.ts";
import type { ClaimedRun, RunFinish, RunRecord } from "../../records/run.ts";
import type { Page } from "../history.ts";
import type { SweepCounts } from "../maintenance.ts";
import type { Store } from "../store.ts";
import type { StoredTrigger } from "../trigger_store.ts";
import { SqliteAlerts } from "./alerts.ts";
import { SqliteConnection } from "./connection.ts";
import { DedupKeys } from "./dedup_keys.ts";
import type { Fingerprint } from "./dedup_index.ts";
import { SqliteHistory } from "./history.ts";
import { SqliteIngestLog } from "./ingest_log.ts";
import { SqliteMaintenance } from "./maintenance.ts";
import { SqliteMeta } from "./meta.ts";
import { openDatabase } from "./open_database.ts";
import { SqliteRunLeases } from "./run_leases.ts";
import { SqliteTriggers } from "./triggers.ts";

export { SWEEP_SQL } from "./maintenance.ts";

export interface SqliteStoreOptions {
  /**
   * Benchmark knob (`INLET_GROUP_COMMIT=0`): false commits every write in its own transaction,
   * one fsync each, to measure what group commit saves. Never turn it off in production.
   */
  groupCommit?: boolean;
  /** Flushes the WAL file, given its descriptor (tests replace it to hold or fail a flush, or to see which file is flushed); default fdatasync. */
  flushWal?: (fd: number) => Promise<void>;
  /** Rows the retention sweep deletes per table per transaction (SWEEP_CHUNK; tests make it small); the event loop answers requests between them. */
  sweepChunk?: number;
  /** The dedup index's fingerprint of a key (tests make keys collide); default wyhash. */
  fingerprint?: Fingerprint;
}

/** The embedded store's database file in a data dir. */
export const sqlitePathIn = (dataDir: string) => join(dataDir, "inlet.db");

/**
 * The embedded store: one SQLite file in the data dir, WAL, grouped commits, each on disk before
 * any caller it covers is answered. The connection runs with `synchronous = NORMAL` — SQLite's
 * WAL setting that flushes at every checkpoint (the WAL before copying it, the database file
 * after, the WAL header before reuse) but not at each commit — and the store closes that gap
 * itself: after each batch's commit the WAL is flushed with fdatasync off the event loop
 * (WalSync), and the batch's callers are answered only then. The thread that answers requests
 * never waits for a commit's flush, and the next batch is built meanwhile. An in-memory
 * database (`:memory:`, tests) has nothing to flush.
 *
 * Dedup keys are rows keyed by expiry first, with an in-memory index of the live keys
 * (DedupKeys). The index is the one authority only while one process claims keys: `inlet serve`
 * holds the data dir's serve lock (serve_lock.ts) before it opens the store.
 *
 * Each role of the Store is its own module on the one shared connection (SqliteConnection); this
 * class composes them.
 */
export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  /** Migration versions this open applied (for `inlet migrate`). */
  readonly applied: number[];
  private readonly triggers: SqliteTriggers;
  private readonly ingest: SqliteIngestLog;
  private readonly leases: SqliteRunLeases;
  private readonly alerts: SqliteAlerts;
  private readonly history: SqliteHistory;
  private readonly meta: SqliteMeta;
  private readonly maintenance: SqliteMaintenance;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    const opened = openDatabase(path, options.flushWal);
    this.applied = opened.applied;
    const keys = new DedupKeys(opened, options.fingerprint);
    const connection = new SqliteConnection(opened, keys, { groupCommit: options.groupCommit });
    this.triggers = new SqliteTriggers(connection);
    this.ingest = new SqliteIngestLog(connection, keys);
    this.leases = new SqliteRunLeases(connection);
    this.alerts = new SqliteAlerts(connection);
    this.history = new SqliteHistory(connection);
    this.meta = new SqliteMeta(connection);
    this.maintenance = new SqliteMaintenance(connection, keys, options.sweepChunk);
  }

  // TriggerStore
  listTriggers(): Promise<StoredTrigger[]> {
    return this.triggers.listTriggers();
  }
  getTrigger(id: string): Promise<StoredTrigger | null> {
    return this.triggers.getTrigger(id);
  }
  insertTrigger(trigger: StoredTrigger): Promise<void> {
    return this.triggers.insertTrigger(trigger);
  }
  updateTrigger(trigger: StoredTrigger): Promise<void> {
    return this.triggers.updateTrigger(trigger);
  }
  deleteTrigger(id: string): Promise<boolean> {
    return this.triggers.deleteTrigger(id);
  }
  triggersRevision(): Promise<number> {
    return this.triggers.triggersRevision();
  }

  // IngestLog
  hasDedupKey(triggerId: string, keyHash: string, now: Date): Promise<boolean> {
    return this.ingest.hasDedupKey(triggerId, keyHash, now);
  }
  commitIngest(record: IngestRecord): Promise<{ deduplicated: boolean }> {
    return this.ingest.commitIngest(record);
  }
  recordActivity(row: ActivityRecord): Promise<void> {
    return this.ingest.recordActivity(row);
  }
  countActivity(row: ActivityRecord): Promise<void> {
    return this.ingest.countActivity(row);
  }

  // RunLeases
  claimRuns(owner: string, limit: number, leaseMs: number, now: Date): Promise<ClaimedRun[]> {
    return this.leases.claimRuns(owner, limit, leaseMs, now);
  }
  claimRun(id: string, owner: string, leaseMs: number, now: Date): Promise<ClaimedRun | null> {
    return this.leases.claimRun(id, owner, leaseMs, now);
  }
  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void> {
    return this.leases.renewLeases(owner, ids, leaseMs, now);
  }
  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean> {
    return this.leases.recordAttempt(id, owner, attempts, result);
  }
  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean> {
    return this.leases.finishRun(id, owner, finish);
  }
  releaseRuns(owner: string, ids: string[]): Promise<void> {
    return this.leases.releaseRuns(owner, ids);
  }
  requeueAbandonedRuns(now: Date): Promise<number> {
    return this.leases.requeueAbandonedRuns(now);
  }

  // AlertStore
  measureAlert(triggerId: string, rule: AlertRule, now: Date, createdAt: string): Promise<number> {
    return this.alerts.measureAlert(triggerId, rule, now, createdAt);
  }
  listAlerts(): Promise<AlertRecord[]> {
    return this.alerts.listAlerts();
  }
  transitionAlert(next: AlertRecord, from: AlertState | null, notification: { id: string; payload: string } | null): Promise<boolean> {
    return this.alerts.transitionAlert(next, from, notification);
  }
  dropAlerts(keep: (alertId: string) => boolean): Promise<void> {
    return this.alerts.dropAlerts(keep);
  }
  claimAlertNotifications(owner: string, limit: number, now: Date, leaseMs: number): Promise<AlertNotification[]> {
    return this.alerts.claimAlertNotifications(owner, limit, now, leaseMs);
  }
  settleAlertNotification(id: string, alertId: string, outcome: { deliveredAt: string } | { nextMs: number }): Promise<void> {
    return this.alerts.settleAlertNotification(id, alertId, outcome);
  }

  // History
  listActivity(triggerId: string, page: Page): Promise<ActivityRecord[]> {
    return this.history.listActivity(triggerId, page);
  }
  getActivity(id: string): Promise<ActivityRecord | null> {
    return this.history.getActivity(id);
  }
  listRuns(filter: { triggerId?: string; includeTrigger: boolean } & Page): Promise<RunRecord[]> {
    return this.history.listRuns(filter);
  }
  getRun(id: string): Promise<RunRecord | null> {
    return this.history.getRun(id);
  }
  runsWaitingOnKey(): Promise<Record<string, number>> {
    return this.history.runsWaitingOnKey();
  }
  countReplayable(query: ReplayQuery): Promise<number> {
    return this.history.countReplayable(query);
  }
  listReplayable(query: ReplayQuery, afterSeq: number, limit: number): Promise<ReplayCandidate[]> {
    return this.history.listReplayable(query, afterSeq, limit);
  }

  // MetaStore
  getMeta(key: string): Promise<string | null> {
    return this.meta.getMeta(key);
  }
  setMeta(key: string, value: string): Promise<void> {
    return this.meta.setMeta(key, value);
  }
  setMetaIfAbsent(key: string, value: string): Promise<string> {
    return this.meta.setMetaIfAbsent(key, value);
  }

  // Maintenance
  ping(): Promise<boolean> {
    return this.maintenance.ping();
  }
  beginServing(): Promise<void> {
    return this.maintenance.beginServing();
  }
  memoryGauges(): Record<string, number> {
    return this.maintenance.memoryGauges();
  }
  sweep(now: Date, olderThan: Date): Promise<SweepCounts> {
    return this.maintenance.sweep(now, olderThan);
  }
  close(): Promise<void> {
    return this.maintenance.close();
  }
}
