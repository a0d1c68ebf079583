import { Database, type Statement } from "bun:sqlite";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import { GroupCommit } from "../group_commit.ts";
import { parseJson } from "../../json/index.ts";
import { ACTIVITY_COLUMNS, jsonOrNull, laneOf, ORDERED_RUN_MAY_START, RUNS_WAITING_ON_KEY, runColumns, toActivity, toRun, toTrigger, type ActivityRow, type RunRow, type TriggerRow } from "../rows.ts";
import { type ActivityRecord } from "../../records/activity.ts";
import { type IngestRecord, type ReplayCandidate, type ReplayQuery } from "../../records/ingest.ts";
import { type ClaimedRun, type RunFinish, type RunRecord } from "../../records/run.ts";
import { SchemaTooNew, StoreUnavailable, UnknownCursor } from "../errors.ts";
import { SWEEP_CHUNK, sweepInChunks, type Page, type Store, type StoredTrigger, type SweepCounts } from "../store.ts";
import { MIGRATIONS } from "./migrations.ts";
import { ownerOnlyDatabase } from "./owner_only_database.ts";
import { WalSync } from "./wal_sync.ts";
import { DedupIndex, EXPIRED_KEPT_MS, type Fingerprint } from "./dedup_index.ts";
import { countedMinute } from "../counted_activity.ts";
import { replayCountSql, replayPageSql } from "../replay_where.ts";
import { dueNotification, measureOf, measureQuery, toAlert, type AlertRow } from "../alert_sql.ts";
import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../../records/alert.ts";

const RUN_COLUMNS = runColumns(true);

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

/** A dedup key in the index: its trigger and its hash. */
const indexKey = (triggerId: string, keyHash: string) => `${triggerId}\u0000${keyHash}`;

/**
 * What the sweep deletes, one chunk at a time (`?` = the cut-off, then the chunk size), each found
 * through its own index: expired keys by expiry, Activity by arrival, finished runs by creation
 * time (`INDEXED BY`: never through their status, which would read every finished run).
 */
export const SWEEP_SQL = {
  dedupKeys: "DELETE FROM dedup_keys WHERE (expires_ms, trigger_id, key_hash) IN (SELECT expires_ms, trigger_id, key_hash FROM dedup_keys WHERE expires_ms <= ? LIMIT ?)",
  activity: "DELETE FROM activity WHERE seq IN (SELECT seq FROM activity WHERE at_ms < ? LIMIT ?)",
  runs: "DELETE FROM runs WHERE seq IN (SELECT seq FROM runs INDEXED BY runs_by_age WHERE created_ms < ? AND status IN ('succeeded', 'failed') LIMIT ?)",
  // A row per alert transition: few enough to read whole.
  notifications: "DELETE FROM alert_outbox WHERE seq IN (SELECT seq FROM alert_outbox WHERE delivered_at IS NOT NULL AND delivered_at < ? LIMIT ?)",
} as const;

/** The page size of a database this store creates (see the constructor). */
const PAGE_SIZE = 8192;

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
 * Dedup keys are rows keyed by expiry first, so a claim is appended where keys of its window
 * length end (not written on a random leaf); whether a key is new is asked of an in-memory index
 * of the live keys (DedupIndex), loaded from those rows, and a match is confirmed on its row.
 * The index is the one authority only while one process claims keys: `inlet serve` holds the
 * data dir's serve lock (serve_lock.ts) before it opens the store.
 */
export class SqliteStore implements Store {
  readonly kind = "sqlite" as const;
  private readonly db: Database;
  private readonly group: GroupCommit;
  private readonly walFd: number | null = null;
  private readonly wal: WalSync | null = null;
  private readonly stmt: Record<string, Statement>;
  private closed = false;
  /** Whether the last grouped transaction changed any row (read by group commit's `durable`, right after it commits). */
  private batchChanged = true;
  /** The WAL flush last asked for: it covers every commit made before it was asked for. */
  private lastFlush: Promise<void> | null = null;
  private readonly sweepChunk: number;
  private readonly fingerprint: Fingerprint | undefined;
  private index: DedupIndex | null = null;
  /**
   * The claims of the open write transaction, in order (a savepoint's rollback drops those made
   * after it): indexed once the transaction commits. A batch holds at most 64 requests.
   */
  private claims: Array<{ key: string; expiresMs: number; atMs: number }> = [];
  /** Migration versions this open applied (for `inlet migrate`). */
  readonly applied: number[] = [];

  constructor(path: string, options: SqliteStoreOptions = {}) {
    // Private (the dir 0700 when made here, the files 0600 in any case): the database holds
    // payloads, the admin token's hash and sealed secrets.
    if (path !== ":memory:") {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      ownerOnlyDatabase(path);
    }
    this.fingerprint = options.fingerprint;
    this.db = new Database(path, { create: true, strict: true });
    // A new database gets 8 KB pages (an existing one keeps its own: the size is fixed once a table
    // exists). Measured on the full configuration against SQLite's 4 KB default: 1 KB bodies 52 vs
    // 54-55 µs of CPU per request, 64 KB bodies 588-605 vs 618-625 µs (fewer WAL frames and
    // overflow pages per row); 16 KB pages were better for 64 KB bodies but worse for 1 KB ones.
    this.db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    this.db.exec("PRAGMA journal_mode = WAL");
    // FULL (each commit flushed) while migrating, and for an in-memory database; see below.
    this.db.exec("PRAGMA synchronous = FULL");
    this.db.exec("PRAGMA busy_timeout = 5000");
    // A savepoint's journal (see GroupCommit) in memory, not a temporary file per transaction.
    this.db.exec("PRAGMA temp_store = MEMORY");
    this.migrate(path);
    // A read-only file fails here, at start, with the file named, not at the first request.
    this.db.run("UPDATE meta SET value = value WHERE key = 'triggers_revision'");
    if (path !== ":memory:") {
      // From here on, each batch's commit is flushed by WalSync (see above).
      this.db.exec("PRAGMA synchronous = NORMAL");
      this.walFd = openSync(`${path}-wal`, "r");
      this.wal = new WalSync(this.walFd, options.flushWal);
    }
    const db = this.db;
    this.stmt = {
      totalChanges: db.prepare("SELECT total_changes() AS n"),
      savepoint: db.prepare("SAVEPOINT item"),
      release: db.prepare("RELEASE item"),
      rollbackToSavepoint: db.prepare("ROLLBACK TO item"),
      keyRow: db.prepare("SELECT 1 FROM dedup_keys WHERE expires_ms = ? AND trigger_id = ? AND key_hash = ?"),
      putKey: db.prepare("INSERT INTO dedup_keys (expires_ms, trigger_id, key_hash) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
      putRun: db.prepare(
        "INSERT INTO runs (id, trigger_id, request_id, status, trigger_json, result_json, attempts, error, created_at, finished_at, created_ms, lease_owner, lease_until_ms, replay_of, lane, ordering_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      putActivity: db.prepare(
        "INSERT INTO activity (id, trigger_id, at, at_ms, request_id, outcome, run_id, detail, request_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      countActivity: db.prepare(
        `INSERT INTO activity (id, trigger_id, at, at_ms, request_id, outcome, run_id, detail, count, counted_minute) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
         ON CONFLICT (trigger_id, outcome, counted_minute, coalesce(detail, '')) WHERE counted_minute IS NOT NULL DO UPDATE SET count = count + excluded.count`,
      ),
      bumpRevision: db.prepare("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'triggers_revision'"),
      claimQueued: db.prepare(
        `UPDATE runs SET status = 'running', lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT r.seq FROM runs r WHERE r.status = 'queued' AND ${ORDERED_RUN_MAY_START} ORDER BY r.lane, r.seq LIMIT ?) RETURNING seq, ${RUN_COLUMNS}`,
      ),
      claimLapsed: db.prepare(
        `UPDATE runs SET lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT seq FROM runs WHERE status = 'running' AND lease_until_ms < ? ORDER BY seq LIMIT ?) RETURNING seq, ${RUN_COLUMNS}`,
      ),
      claimOne: db.prepare(
        `UPDATE runs SET status = 'running', lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT r.seq FROM runs r WHERE r.id = ? AND r.status = 'queued' AND ${ORDERED_RUN_MAY_START}) RETURNING ${RUN_COLUMNS}`,
      ),
      renewLeases: db.prepare("UPDATE runs SET lease_until_ms = ? WHERE lease_owner = ? AND status = 'running' AND id IN (SELECT value FROM json_each(?))"),
      recordAttempt: db.prepare("UPDATE runs SET attempts = ?, result_json = ? WHERE id = ? AND lease_owner = ? AND status = 'running'"),
      finishRun: db.prepare(
        "UPDATE runs SET status = ?, result_json = ?, error = ?, attempts = ?, finished_at = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ? AND lease_owner = ? AND status = 'running'",
      ),
      releaseRuns: db.prepare(
        "UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL WHERE lease_owner = ? AND status = 'running' AND id IN (SELECT value FROM json_each(?))",
      ),
      requeueRunning: db.prepare("UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL WHERE status = 'running'"),
      sweepKeys: db.prepare(SWEEP_SQL.dedupKeys),
      sweepActivity: db.prepare(SWEEP_SQL.activity),
      sweepRuns: db.prepare(SWEEP_SQL.runs),
      sweepNotifications: db.prepare(SWEEP_SQL.notifications),
      dueNotification: db.prepare(`SELECT 1 FROM alert_outbox WHERE ${dueNotification("?")} LIMIT 1`),
      claimNotifications: db.prepare(
        `UPDATE alert_outbox SET lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT seq FROM alert_outbox WHERE ${dueNotification("?")} ORDER BY seq LIMIT ?)
         RETURNING id, alert_id, payload, attempts`,
      ),
    };
    this.sweepChunk = Math.max(1, options.sweepChunk ?? SWEEP_CHUNK);
    const begin = db.transaction((work: () => void) => work());
    this.group = new GroupCommit((work) => this.committing(() => begin.immediate(work)), {
      maxBatch: options.groupCommit === false ? 1 : 64,
      failure: (error) => (error instanceof StoreUnavailable ? error : new StoreUnavailable(`SQLite commit failed: ${(error as Error)?.message ?? error}`)),
      savepoint: (work) => this.inSavepoint(work),
      durable: this.wal
        ? () =>
            this.durableAfter(this.batchChanged).catch((error) =>
              Promise.reject(new StoreUnavailable(`SQLite: committed, but the WAL could not be flushed to disk: ${(error as Error)?.message ?? error}`)),
            )
        : undefined,
    });
  }

  /** Rows inserted, updated or deleted on this connection since it opened (rolled-back ones included). */
  private totalChanges(): number {
    return (this.stmt.totalChanges.get() as { n: number }).n;
  }

  /** Resolves once everything committed so far is on disk. */
  private flushed(): Promise<void> {
    if (!this.wal) return Promise.resolve();
    return (this.lastFlush = this.wal.afterNow());
  }

  /**
   * Resolves once a transaction just committed is on disk. One that changed no row wrote no WAL
   * frame: it waits only for the flush last asked for (which covers every earlier commit whose
   * rows it may have read), and when that is done, for nothing — an idle poll (claimRuns every
   * second) neither flushes nor waits.
   */
  private durableAfter(changed: boolean): Promise<void> {
    return changed ? this.flushed() : (this.lastFlush ?? Promise.resolve());
  }

  /** A write outside group commit (triggers, meta, sweeps): answered once it is on disk. */
  private async change<T>(work: () => T): Promise<T> {
    const refused = this.refusesWrites();
    if (refused) throw refused;
    const before = this.totalChanges();
    const outcome = this.guard(work);
    // Asked for at once, as group commit does, so no transaction committed after this one is
    // answered before this one's flush has been asked for.
    const durable = this.durableAfter(this.totalChanges() > before);
    durable.catch(() => {}); // awaited below, after the outcome
    const result = await outcome;
    try {
      await durable;
    } catch (error) {
      throw new StoreUnavailable(`SQLite: the write could not be flushed to disk: ${(error as Error)?.message ?? error}`);
    }
    return result;
  }

  private inSavepoint<T>(work: () => T): T {
    const claims = this.claims.length;
    this.stmt.savepoint.run();
    try {
      const result = work();
      this.stmt.release.run();
      return result;
    } catch (error) {
      this.stmt.rollbackToSavepoint.run();
      this.stmt.release.run();
      this.claims.length = claims;
      throw error;
    }
  }

  /** Runs a write transaction: the keys it claimed join the index once it has committed, never before. */
  private committing(transaction: () => void): void {
    this.claims = [];
    const before = this.totalChanges();
    try {
      transaction();
    } catch (error) {
      this.claims = [];
      throw error;
    }
    this.batchChanged = this.totalChanges() > before;
    const claims = this.claims;
    this.claims = [];
    if (claims.length === 0) return;
    // What a rebuild may drop is judged from the latest arrival among them.
    const latestMs = Math.max(...claims.map((c) => c.atMs));
    const index = this.dedupIndex();
    for (const c of claims) index.add(c.key, c.expiresMs, latestMs);
  }

  /** The index of live dedup keys, loaded from their rows on first use. */
  private dedupIndex(): DedupIndex {
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

  /** Is the key claimed and unexpired at `atMs`? Each index match is confirmed on its row. */
  private keyIsLive(key: string, triggerId: string, keyHash: string, atMs: number): boolean {
    for (const expiresMs of this.dedupIndex().candidates(key, atMs)) {
      if (this.stmt.keyRow.get(expiresMs, triggerId, keyHash) !== null) return true;
    }
    return false;
  }

  /** Claims a dedup key inside the write transaction; false when it is live at `atMs` (a duplicate). */
  private claimKey(triggerId: string, keyHash: string, atMs: number, expiresMs: number): boolean {
    const key = indexKey(triggerId, keyHash);
    // Claimed earlier in this transaction (not in the index yet), or before it.
    if (this.claims.some((c) => c.key === key && c.expiresMs > atMs) || this.keyIsLive(key, triggerId, keyHash, atMs)) return false;
    // A row already there with this very expiry is the same claim: a duplicate too.
    if (this.stmt.putKey.run(expiresMs, triggerId, keyHash).changes === 0) return false;
    this.claims.push({ key, expiresMs, atMs });
    return true;
  }

  /** For `inlet serve`: loads the dedup index before the first request needs it. */
  async beginServing(): Promise<void> {
    this.dedupIndex();
  }

  /**
   * The dedup index's entries (live keys, and expired ones until its next rebuild) and the bytes
   * its table takes: it has no cap, so a long window at a high rate is watched here (README).
   */
  memoryGauges(): Record<string, number> {
    const index = this.index;
    return { inlet_dedup_index_keys: index?.size ?? 0, inlet_dedup_index_bytes: index?.bytes ?? 0 };
  }

  private migrate(path: string): void {
    this.db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    const done = new Set(this.db.query<{ version: number }, []>("SELECT version FROM schema_migrations").all().map((r) => r.version));
    const known = Math.max(...MIGRATIONS.map((m) => m.version));
    const found = Math.max(0, ...done);
    if (found > known) throw new SchemaTooNew(`SQLite at ${path}`, found, known);
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      this.applied.push(migration.version);
      this.db.transaction(() => {
        this.db.exec(migration.sql);
        this.db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [migration.version, migration.name, new Date().toISOString()]);
      }).immediate();
    }
  }

  private guard<T>(work: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new StoreUnavailable("the store is closed"));
    try {
      return Promise.resolve(work());
    } catch (error) {
      if (error instanceof UnknownCursor) return Promise.reject(error);
      return Promise.reject(new StoreUnavailable(`SQLite: ${(error as Error)?.message ?? error}`));
    }
  }

  async ping(): Promise<boolean> {
    // A failed WAL flush stops every write until a restart (WalSync): not ready.
    if (this.closed || this.wal?.failure) return false;
    try {
      this.db.query("SELECT 1").get();
      return true;
    } catch {
      return false;
    }
  }

  getMeta(key: string): Promise<string | null> {
    return this.guard(() => this.db.query<{ value: string }, [string]>("SELECT value FROM meta WHERE key = ?").get(key)?.value ?? null);
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.change(() => {
      this.db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
    });
  }

  setMetaIfAbsent(key: string, value: string): Promise<string> {
    return this.change(() => {
      this.db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [key, value]);
      return this.db.query<{ value: string }, [string]>("SELECT value FROM meta WHERE key = ?").get(key)!.value;
    });
  }

  listTriggers(): Promise<StoredTrigger[]> {
    return this.guard(() =>
      this.db.query<TriggerRow, []>("SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers ORDER BY seq DESC").all().map(toTrigger),
    );
  }

  getTrigger(id: string): Promise<StoredTrigger | null> {
    return this.guard(() => {
      const row = this.db.query<TriggerRow, [string]>("SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers WHERE id = ?").get(id);
      return row ? toTrigger(row) : null;
    });
  }

  insertTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.change(() =>
      this.db.transaction(() => {
        this.db.run(
          "INSERT INTO triggers (id, token, config, secret_sealed, app_secret_sealed, armed_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          [c.id, c.token, JSON.stringify(c), trigger.secretSealed, trigger.appSecretSealed, trigger.armedUntil ?? null, c.createdAt, c.updatedAt],
        );
        this.stmt.bumpRevision.run();
      }).immediate(),
    );
  }

  updateTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.change(() =>
      this.db.transaction(() => {
        this.db.run("UPDATE triggers SET token = ?, config = ?, secret_sealed = ?, app_secret_sealed = ?, armed_until = ?, updated_at = ? WHERE id = ?", [
          c.token,
          JSON.stringify(c),
          trigger.secretSealed,
          trigger.appSecretSealed,
          trigger.armedUntil ?? null,
          c.updatedAt,
          c.id,
        ]);
        this.stmt.bumpRevision.run();
      }).immediate(),
    );
  }

  deleteTrigger(id: string): Promise<boolean> {
    return this.change(() =>
      this.db.transaction(() => {
        const removed = this.db.run("DELETE FROM triggers WHERE id = ?", [id]).changes > 0;
        if (!removed) return false;
        this.db.run("DELETE FROM runs WHERE trigger_id = ?", [id]);
        this.db.run("DELETE FROM activity WHERE trigger_id = ?", [id]);
        this.db.run("DELETE FROM dedup_keys WHERE trigger_id = ?", [id]);
        this.stmt.bumpRevision.run();
        return true;
      }).immediate(),
    );
  }

  triggersRevision(): Promise<number> {
    return this.guard(() => Number(this.db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'triggers_revision'").get()?.value ?? 0));
  }

  hasDedupKey(triggerId: string, keyHash: string, now: Date): Promise<boolean> {
    return this.guard(() => this.keyIsLive(indexKey(triggerId, keyHash), triggerId, keyHash, now.getTime()));
  }

  commitIngest(record: IngestRecord): Promise<{ deduplicated: boolean }> {
    return this.write(() => this.applyIngest(record));
  }

  private applyIngest({ dedup, run, activity, lease, triggerJson: serialized }: IngestRecord): { deduplicated: boolean } {
    const at = Date.parse(activity.at);
    if (dedup) {
      // Claimed inside the write transaction: of two concurrent identical requests exactly one wins.
      if (!this.claimKey(activity.triggerId, dedup.keyHash, at, at + dedup.windowSeconds * 1000)) {
        this.insertActivity({ ...activity, outcome: "deduplicated", runId: null });
        return { deduplicated: true };
      }
    }
    if (run) {
      const triggerJson = serialized ?? JSON.stringify(run.trigger);
      this.stmt.putRun.run(
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
        lease?.owner ?? null,
        lease?.untilMs ?? null,
        run.replayOf ?? null,
        laneOf(run),
        run.orderingKey ?? null,
      );
    }
    this.insertActivity(activity);
    return { deduplicated: false };
  }

  private insertActivity(row: ActivityRecord): void {
    const request = row.outcome === "filtered" && row.request !== undefined ? JSON.stringify(row.request) : null;
    this.stmt.putActivity.run(row.id, row.triggerId, row.at, Date.parse(row.at), row.requestId, row.outcome, row.runId, row.detail, request);
  }

  recordActivity(row: ActivityRecord): Promise<void> {
    return this.write(() => this.insertActivity(row));
  }

  countActivity(row: ActivityRecord): Promise<void> {
    return this.write(() => {
      this.stmt.countActivity.run(row.id, row.triggerId, row.at, Date.parse(row.at), row.requestId, row.outcome, row.detail, row.count ?? 1, countedMinute(row.at));
    });
  }

  /** A write that rides the next grouped transaction: durable when it resolves. */
  private write<T>(work: () => T): Promise<T> {
    const refused = this.refusesWrites();
    return refused ? Promise.reject(refused) : this.group.submit(work);
  }

  /** Why no write is taken now: closed, or a WAL flush failed (WalSync) — until a restart. */
  private refusesWrites(): StoreUnavailable | null {
    if (this.closed) return new StoreUnavailable("the store is closed");
    const failure = this.wal?.failure;
    return failure ? new StoreUnavailable(`SQLite: a WAL flush failed (${failure.message}); nothing more is written until inlet restarts`) : null;
  }

  claimRuns(owner: string, limit: number, leaseMs: number, now: Date): Promise<ClaimedRun[]> {
    if (limit <= 0) return Promise.resolve([]);
    const until = now.getTime() + leaseMs;
    return this.write(() => {
      const rows = this.stmt.claimQueued.all(owner, until, limit) as Array<RunRow & { seq: number }>;
      if (rows.length < limit) rows.push(...(this.stmt.claimLapsed.all(owner, until, now.getTime(), limit - rows.length) as Array<RunRow & { seq: number }>));
      return rows.sort((a, b) => a.seq - b.seq).map((row) => toRun(row) as ClaimedRun);
    });
  }

  claimRun(id: string, owner: string, leaseMs: number, now: Date): Promise<ClaimedRun | null> {
    return this.write(() => {
      const row = this.stmt.claimOne.get(owner, now.getTime() + leaseMs, id) as RunRow | null;
      return row ? (toRun(row) as ClaimedRun) : null;
    });
  }

  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.write(() => {
      this.stmt.renewLeases.run(now.getTime() + leaseMs, owner, JSON.stringify(ids));
    });
  }

  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean> {
    return this.write(() => this.stmt.recordAttempt.run(attempts, jsonOrNull(result), id, owner).changes > 0);
  }

  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean> {
    return this.write(
      () => this.stmt.finishRun.run(finish.status, jsonOrNull(finish.result), finish.error, finish.attempts, finish.finishedAt, id, owner).changes > 0,
    );
  }

  releaseRuns(owner: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.write(() => {
      this.stmt.releaseRuns.run(owner, JSON.stringify(ids));
    });
  }

  requeueAbandonedRuns(_now: Date): Promise<number> {
    // One process owns the SQLite file: at start, nothing running is still running.
    return this.write(() => this.stmt.requeueRunning.run().changes);
  }

  private cursor(table: "runs" | "activity", before: string | undefined): number {
    if (before === undefined) return Number.MAX_SAFE_INTEGER;
    const row = this.db.query<{ seq: number }, [string]>(`SELECT seq FROM ${table} WHERE id = ?`).get(before);
    if (!row) throw new UnknownCursor(`before: no ${table === "runs" ? "run" : "Activity row"} with id ${JSON.stringify(before)}`);
    return row.seq;
  }

  listActivity(triggerId: string, page: Page): Promise<ActivityRecord[]> {
    return this.guard(() =>
      this.db
        .query<ActivityRow, [string, number, number]>(
          `SELECT ${ACTIVITY_COLUMNS} FROM activity WHERE trigger_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
        )
        .all(triggerId, this.cursor("activity", page.before), page.limit)
        .map(toActivity),
    );
  }

  getActivity(id: string): Promise<ActivityRecord | null> {
    return this.guard(() => {
      const row = this.db.query<ActivityRow, [string]>(`SELECT ${ACTIVITY_COLUMNS}, request_json FROM activity WHERE id = ?`).get(id);
      return row ? toActivity(row) : null;
    });
  }

  measureAlert(triggerId: string, rule: AlertRule, now: Date, createdAt: string): Promise<number> {
    return this.guard(() => {
      const { sql, params } = measureQuery(rule, triggerId, now.getTime(), () => "?");
      const row = this.db.query<{ v: unknown }, Array<string | number>>(sql).get(...params);
      return measureOf(rule, row?.v ?? null, now.getTime(), createdAt);
    });
  }

  listAlerts(): Promise<AlertRecord[]> {
    return this.guard(() => this.db.query<AlertRow, []>("SELECT * FROM alerts ORDER BY trigger_id, id").all().map(toAlert));
  }

  transitionAlert(next: AlertRecord, from: AlertState | null, notification: { id: string; payload: string } | null): Promise<boolean> {
    return this.write(() =>
      this.db.transaction(() => {
        const moved =
          from === null
            ? this.db.run(
                "INSERT INTO alerts (id, trigger_id, kind, state, since, value, threshold, notified_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL) ON CONFLICT (id) DO NOTHING",
                [next.id, next.triggerId, next.kind, next.state, next.since, next.value, next.threshold],
              ).changes
            : this.db.run("UPDATE alerts SET state = ?, since = ?, value = ?, threshold = ? WHERE id = ? AND state = ?", [next.state, next.since, next.value, next.threshold, next.id, from]).changes;
        if (moved === 0) return false;
        if (notification) {
          // An earlier transition's notification not yet delivered is superseded: sent after this one, it
          // would leave the destination with the wrong state. One being sent right now goes too: its
          // settle then finds no row and marks nothing notified.
          this.db.run("DELETE FROM alert_outbox WHERE alert_id = ? AND delivered_at IS NULL", [next.id]);
          this.db.run("INSERT INTO alert_outbox (id, alert_id, payload, next_ms) VALUES (?, ?, ?, 0)", [notification.id, next.id, notification.payload]);
        }
        return true;
      })(),
    );
  }

  dropAlerts(keep: (alertId: string) => boolean): Promise<void> {
    return this.write(() => {
      for (const { id } of this.db.query<{ id: string }, []>("SELECT id FROM alerts").all()) {
        if (keep(id)) continue;
        this.db.run("DELETE FROM alerts WHERE id = ?", [id]);
        this.db.run("DELETE FROM alert_outbox WHERE alert_id = ? AND delivered_at IS NULL", [id]);
      }
    });
  }

  claimAlertNotifications(owner: string, limit: number, now: Date, leaseMs: number): Promise<AlertNotification[]> {
    const t = now.getTime();
    // Asked every second: when nothing is due (nearly always) it is a read, not a commit and a flush.
    return this.guard(() => this.stmt.dueNotification.get(t, t) === null).then((idle) =>
      idle
        ? []
        : this.write(() =>
            (this.stmt.claimNotifications.all(owner, t + leaseMs, t, t, limit) as Array<{ id: string; alert_id: string; payload: string; attempts: number }>).map((row) => ({
              id: row.id,
              alertId: row.alert_id,
              payload: row.payload,
              attempts: row.attempts,
            })),
          ),
    );
  }

  settleAlertNotification(id: string, alertId: string, outcome: { deliveredAt: string } | { nextMs: number }): Promise<void> {
    return this.write(() => {
      if ("deliveredAt" in outcome) {
        this.db.run("UPDATE alert_outbox SET delivered_at = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ?", [outcome.deliveredAt, id]);
        // A notification a later transition superseded is gone: the alert's new state was not notified.
        this.db.run("UPDATE alerts SET notified_at = ? WHERE id = ? AND EXISTS (SELECT 1 FROM alert_outbox WHERE id = ?)", [outcome.deliveredAt, alertId, id]);
      } else {
        this.db.run("UPDATE alert_outbox SET attempts = attempts + 1, next_ms = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ?", [outcome.nextMs, id]);
      }
    });
  }

  runsWaitingOnKey(): Promise<Record<string, number>> {
    return this.guard(() =>
      Object.fromEntries(this.db.query<{ trigger_id: string; n: number }, []>(RUNS_WAITING_ON_KEY).all().map((row) => [row.trigger_id, row.n])),
    );
  }

  countReplayable(query: ReplayQuery): Promise<number> {
    return this.guard(() => {
      const { sql, params } = replayCountSql(query, () => "?");
      return this.db.query<{ n: number }, Array<string | number>>(sql).get(...params)!.n;
    });
  }

  listReplayable(query: ReplayQuery, afterSeq: number, limit: number): Promise<ReplayCandidate[]> {
    return this.guard(() => {
      const { sql, params } = replayPageSql(query, afterSeq, limit, () => "?");
      return this.db
        .query<{ seq: number; id: string; request_id: string; json: string }, Array<string | number>>(sql)
        .all(...params)
        .map((row) => ({ seq: row.seq, id: row.id, requestId: row.request_id, trigger: parseJson(row.json) }));
    });
  }

  listRuns(filter: { triggerId?: string; includeTrigger: boolean } & Page): Promise<RunRecord[]> {
    return this.guard(() => {
      const columns = runColumns(filter.includeTrigger);
      const seq = this.cursor("runs", filter.before);
      const rows = filter.triggerId
        ? this.db.query<RunRow, [string, number, number]>(`SELECT ${columns} FROM runs WHERE trigger_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`).all(filter.triggerId, seq, filter.limit)
        : this.db.query<RunRow, [number, number]>(`SELECT ${columns} FROM runs WHERE seq < ? ORDER BY seq DESC LIMIT ?`).all(seq, filter.limit);
      return rows.map(toRun);
    });
  }

  getRun(id: string): Promise<RunRecord | null> {
    return this.guard(() => {
      const row = this.db
        .query<RunRow, [string]>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`)
        .get(id);
      return row ? toRun(row) : null;
    });
  }

  /** Deletes in chunks (SWEEP_CHUNK rows per table per transaction), yielding to requests between them. */
  sweep(now: Date, olderThan: Date): Promise<SweepCounts> {
    const size = this.sweepChunk;
    const chunk = () =>
      this.change(() =>
        this.db.transaction(() => ({
          dedupKeys: this.stmt.sweepKeys.run(now.getTime(), size).changes,
          activity: this.stmt.sweepActivity.run(olderThan.getTime(), size).changes,
          runs: this.stmt.sweepRuns.run(olderThan.getTime(), size).changes,
          notifications: this.stmt.sweepNotifications.run(olderThan.toISOString(), size).changes,
        })).immediate(),
      );
    return sweepInChunks(size, chunk, () => this.closed, () => new Promise((resolve) => setImmediate(resolve)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.group.drain();
    // A flush of a write outside group commit (meta, triggers, a sweep's chunk) may still run on
    // the descriptor: it is closed after.
    await this.wal?.idle();
    // With a statement left open SQLite closes lazily and keeps the WAL, which a later reader
    // (the move to PostgreSQL) takes for a server still running.
    for (const statement of Object.values(this.stmt)) statement.finalize();
    this.db.close();
    if (this.walFd !== null) closeSync(this.walFd);
  }
}

