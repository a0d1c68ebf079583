import type { TriggerConfig } from "../records/trigger.ts";
import type { ActivityRecord } from "../records/activity.ts";
import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../records/alert.ts";
import type { IngestRecord, ReplayCandidate, ReplayQuery } from "../records/ingest.ts";
import type { ClaimedRun, RunFinish, RunRecord } from "../records/run.ts";

/** A trigger as stored: configuration plus sealed secrets. */
export interface StoredTrigger {
  config: TriggerConfig;
  /** AES-GCM sealed generated secret, or null. */
  secretSealed: string | null;
  /** AES-GCM sealed app secret, or null. */
  appSecretSealed: string | null;
  /**
   * Until when a handshake may hand the trigger a new secret (trust on first use: README
   * "Trust on first use"), ISO; absent or null: not armed.
   */
  armedUntil?: string | null;
}

export interface TriggerWatch {
  close(): Promise<void>;
}

export interface Page {
  limit: number;
  before?: string;
}

/**
 * Rows of each table the retention sweep deletes per statement: a day's worth of expired rows
 * must not hold SQLite's request thread for seconds, nor run one PostgreSQL statement past the
 * store's deadline (it would then fail every minute and never finish).
 */
export const SWEEP_CHUNK = 1000;

/** Rows a sweep deleted, per table. */
export interface SweepCounts {
  dedupKeys: number;
  activity: number;
  runs: number;
  /** Alert notifications delivered before the cut-off. */
  notifications: number;
}

/**
 * Runs `chunk()` (one bounded delete per table, each at most `size` rows) until no table filled
 * its chunk, or `stopped()`; `between` runs between chunks. The deleted rows, summed.
 */
export async function sweepInChunks(size: number, chunk: () => Promise<SweepCounts>, stopped: () => boolean, between?: () => Promise<unknown>): Promise<SweepCounts> {
  const total: SweepCounts = { dedupKeys: 0, activity: 0, runs: 0, notifications: 0 };
  for (;;) {
    const done = await chunk();
    total.dedupKeys += done.dedupKeys;
    total.activity += done.activity;
    total.runs += done.runs;
    total.notifications += done.notifications;
    if (Math.max(done.dedupKeys, done.activity, done.runs, done.notifications) < size || stopped()) return total;
    await between?.();
  }
}

/** The storage every stage uses; SQLite and PostgreSQL implement it. */
export interface Store {
  readonly kind: "sqlite" | "postgres";
  /** Whether the store answers (for /readyz). */
  ping(): Promise<boolean>;

  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
  /** Sets `key` only if it has none yet; resolves with the value that holds (instances may race to create one). */
  setMetaIfAbsent(key: string, value: string): Promise<string>;

  listTriggers(): Promise<StoredTrigger[]>;
  getTrigger(id: string): Promise<StoredTrigger | null>;
  insertTrigger(trigger: StoredTrigger): Promise<void>;
  updateTrigger(trigger: StoredTrigger): Promise<void>;
  /** Removes the trigger with its runs, Activity and dedup keys; false when unknown. */
  deleteTrigger(id: string): Promise<boolean>;
  /** Increases on every trigger change, from any process: instances poll it to reload. */
  triggersRevision(): Promise<number>;
  /**
   * Calls `onChange` as soon as any instance changes a trigger (PostgreSQL LISTEN/NOTIFY), and
   * after every reconnection; absent where polling the revision is enough (SQLite).
   */
  watchTriggers?(onChange: () => void): Promise<TriggerWatch>;

  /**
   * Called once by `inlet serve` before it takes requests (on SQLite, with the data dir's serve
   * lock held: see serve_lock.ts): SQLite loads its dedup index. Absent where there is nothing to
   * do (PostgreSQL, which instances share and each asks about dedup keys).
   */
  beginServing?(): Promise<void>;
  /**
   * Gauges of what the store holds in this process's memory, for `/metrics` (SQLite: its dedup
   * index, which grows with the live keys). Absent where nothing held in memory grows with the
   * data (PostgreSQL).
   */
  memoryGauges?(): Record<string, number>;
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

  listActivity(triggerId: string, page: Page): Promise<ActivityRecord[]>;
  /** One Activity row with the request it kept (filtered rows only), or null. */
  getActivity(id: string): Promise<ActivityRecord | null>;
  /**
   * Per trigger, how many queued runs wait behind an earlier run of the same ordering key that
   * is still queued, running or retrying (a key stuck behind a failing run shows here).
   */
  runsWaitingOnKey(): Promise<Record<string, number>>;
  /** An alert rule's measure now (CONTRACT §6.3): silence in seconds, or a count. */
  measureAlert(triggerId: string, rule: AlertRule, now: Date, createdAt: string): Promise<number>;
  listAlerts(): Promise<AlertRecord[]>;
  /**
   * Moves an alert from `from` (null: not recorded yet) to `next.state`, and queues its
   * notification, in one transaction; false when the alert was not in `from` any more (another
   * instance moved it first): each transition is recorded, and notified, exactly once. The
   * alert's notifications not yet delivered are dropped with it: superseded (SPEC: retried until
   * delivered or the alert changes again).
   */
  transitionAlert(next: AlertRecord, from: AlertState | null, notification: { id: string; payload: string } | null): Promise<boolean>;
  /** Removes alerts whose trigger or rule is gone (and their undelivered notifications). */
  dropAlerts(keep: (alertId: string) => boolean): Promise<void>;
  /** Claims up to `limit` notifications due at `now` for `owner` (others are skipped, not waited for). */
  claimAlertNotifications(owner: string, limit: number, now: Date, leaseMs: number): Promise<AlertNotification[]>;
  /** Marks a notification delivered (and its alert notified), or schedules its next attempt. */
  settleAlertNotification(id: string, alertId: string, outcome: { deliveredAt: string } | { nextMs: number }): Promise<void>;
  /** How many requests a bulk replay matches: `listReplayable` holds one row for each. */
  countReplayable(query: ReplayQuery): Promise<number>;
  /**
   * The next `limit` runs or filtered requests a bulk replay matches after `afterSeq`, oldest
   * first (it pages through these): one row per request, its latest attempt (store/replay_where.ts).
   */
  listReplayable(query: ReplayQuery, afterSeq: number, limit: number): Promise<ReplayCandidate[]>;
  listRuns(filter: { triggerId?: string; includeTrigger: boolean } & Page): Promise<RunRecord[]>;
  getRun(id: string): Promise<RunRecord | null>;

  /**
   * Claims up to `limit` runs for `owner`, oldest first: queued runs, and running runs whose lease
   * lapsed (their process is gone). They become `running`, leased until `now + leaseMs`.
   * (PostgreSQL: `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)`.)
   */
  claimRuns(owner: string, limit: number, leaseMs: number, now: Date): Promise<ClaimedRun[]>;
  /** Claims one queued run by id (a run that should start now); null when it is not queued. */
  claimRun(id: string, owner: string, leaseMs: number, now: Date): Promise<ClaimedRun | null>;
  /** Extends the lease of the runs `owner` is still executing. */
  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void>;
  /** Records progress of a running run (attempts so far, the result so far); false when `owner` no longer holds it. */
  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean>;
  /** Ends a run `owner` holds; false when it no longer holds it (deleted, or its lease was taken over). */
  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean>;
  /** Gives runs `owner` holds back to the queue (graceful stop): running → queued. */
  releaseRuns(owner: string, ids: string[]): Promise<void>;
  /**
   * Requeues runs left `running` by a process that is gone (at-least-once after a crash). SQLite
   * has one process per file, so at start every running run is abandoned; PostgreSQL requeues
   * those whose lease lapsed.
   */
  requeueAbandonedRuns(now: Date): Promise<number>;

  /**
   * Deletes expired dedup keys, and Activity rows and finished runs older than `olderThan`, in
   * chunks of at most SWEEP_CHUNK rows per table (a long backlog never becomes one long statement).
   */
  sweep(now: Date, olderThan: Date): Promise<SweepCounts>;
  close(): Promise<void>;
}
