import { SQL } from "bun";
import { redactUrl } from "../../config/redact_url.ts";
import type { ActivityRecord } from "../../records/activity.ts";
import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../../records/alert.ts";
import type { IngestRecord, ReplayCandidate, ReplayQuery } from "../../records/ingest.ts";
import type { ClaimedRun, RunFinish, RunRecord } from "../../records/run.ts";
import { SchemaTooNew, StoreUnavailable } from "../errors.ts";
import type { Page } from "../history.ts";
import type { SweepCounts } from "../maintenance.ts";
import type { Store } from "../store.ts";
import type { StoredTrigger, TriggerWatch } from "../trigger_store.ts";
import { PostgresAlerts } from "./alerts.ts";
import { describeConnectError } from "./connect_error.ts";
import { PostgresConnection } from "./connection.ts";
import { PostgresHistory } from "./history.ts";
import { PostgresIngestLog } from "./ingest_log.ts";
import { PostgresMaintenance } from "./maintenance.ts";
import { PostgresMeta } from "./meta.ts";
import { applyMigrations } from "./migrate.ts";
import { PostgresRunLeases } from "./run_leases.ts";
import { PostgresTriggers } from "./triggers.ts";

export { TRIGGERS_CHANNEL } from "./triggers.ts";

export interface PostgresStoreOptions {
  /** Connections in the pool (one more is opened for LISTEN). */
  poolSize?: number;
  /** Seconds to wait for a connection before a request is answered 503. */
  connectionTimeout?: number;
  /** Benchmark knob, as for SQLite: false commits every request in its own statement. */
  groupCommit?: boolean;
  /**
   * How long one database call may take before its caller is answered 503 (default 10 s). A
   * server that stops answering (frozen, or the network drops packets) must not hold webhook
   * requests open: the connection timeout only covers opening a connection.
   */
  deadlineMs?: number;
  /** Rows the retention sweep deletes per table per statement (SWEEP_CHUNK; tests make it small). */
  sweepChunk?: number;
}

/**
 * The shared store: several `inlet serve` instances on one PostgreSQL database (Bun's built-in
 * SQL client). Ingest commits are grouped; runs are claimed with FOR UPDATE SKIP LOCKED under
 * leases; trigger changes are announced with NOTIFY. Each role of the Store is its own module on
 * the one shared pool (PostgresConnection); this class composes them.
 */
export class PostgresStore implements Store {
  readonly kind = "postgres" as const;
  /** Migration versions this open applied (for `inlet migrate`). */
  applied: number[] = [];
  private readonly connection: PostgresConnection;
  private readonly triggers: PostgresTriggers;
  private readonly ingest: PostgresIngestLog;
  private readonly leases: PostgresRunLeases;
  private readonly alerts: PostgresAlerts;
  private readonly history: PostgresHistory;
  private readonly meta: PostgresMeta;
  private readonly maintenance: PostgresMaintenance;

  private constructor(sql: SQL, options: PostgresStoreOptions) {
    this.connection = new PostgresConnection(sql, options.deadlineMs ?? 10_000);
    this.triggers = new PostgresTriggers(this.connection);
    this.ingest = new PostgresIngestLog(this.connection, options.groupCommit);
    this.leases = new PostgresRunLeases(this.connection);
    this.alerts = new PostgresAlerts(this.connection);
    this.history = new PostgresHistory(this.connection);
    this.meta = new PostgresMeta(this.connection);
    this.maintenance = new PostgresMaintenance(this.connection, this.ingest, options.sweepChunk);
  }

  /** Connects, applies pending migrations (under an advisory lock) and returns the store. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const sql = new SQL(url, {
      max: options.poolSize ?? 10,
      connectionTimeout: options.connectionTimeout ?? 5,
      idleTimeout: 60,
    });
    const store = new PostgresStore(sql, options);
    const where = `PostgreSQL at ${redactUrl(url)}`;
    try {
      store.applied = await applyMigrations(sql, where);
    } catch (error) {
      await sql.close().catch(() => {});
      if (error instanceof SchemaTooNew) throw error;
      throw new StoreUnavailable(`${where}: ${describeConnectError(error, url)}`);
    }
    return store;
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
  watchTriggers(onChange: () => void): Promise<TriggerWatch> {
    return this.triggers.watchTriggers(onChange);
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
  sweep(now: Date, olderThan: Date): Promise<SweepCounts> {
    return this.maintenance.sweep(now, olderThan);
  }
  close(): Promise<void> {
    return this.maintenance.close();
  }
}
