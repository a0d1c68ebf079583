import { SQL } from "bun";
import { redactUrl } from "../../config/redact_url.ts";
import { describeConnectError } from "./connect_error.ts";
import { withinDeadline } from "./deadline.ts";
import { COUNT_BATCH_SQL, countBatch } from "./count_batch.ts";
import { batchItems, INGEST_BATCH_SQL, RETRYABLE_BATCH_ERRORS } from "./ingest_batch.ts";
import { replayCountSql, replayPageSql } from "../replay_where.ts";
import { dueNotification, measureOf, measureQuery, toAlert, type AlertRow } from "../alert_sql.ts";
import type { AlertNotification, AlertRecord, AlertRule, AlertState } from "../../records/alert.ts";
import { AsyncGroupCommit } from "../group_commit.ts";
import { parseJson } from "../../json/index.ts";
import { ACTIVITY_COLUMNS, jsonOrNull, ORDERED_RUN_MAY_START, RUNS_WAITING_ON_KEY, runColumns, toActivity, toRun, toTrigger, type RunRow } from "../rows.ts";
import { type ActivityRecord } from "../../records/activity.ts";
import { type IngestRecord, type ReplayCandidate, type ReplayQuery } from "../../records/ingest.ts";
import { type ClaimedRun, type RunFinish, type RunRecord } from "../../records/run.ts";
import { SchemaTooNew, StoreUnavailable, UnknownCursor } from "../errors.ts";
import { SWEEP_CHUNK, sweepInChunks, type Page, type Store, type StoredTrigger, type SweepCounts, type TriggerWatch } from "../store.ts";
import { PG_MIGRATIONS } from "./migrations.ts";

const bySeq = (a: RunRow & { seq?: string }, b: RunRow & { seq?: string }) => (BigInt(a.seq!) < BigInt(b.seq!) ? -1 : 1);

/** The channel a trigger change is announced on (payload: the new revision). */
export const TRIGGERS_CHANNEL = "inlet_triggers";
/** pg_advisory_xact_lock key held while migrating ("inlet" in ASCII). */
const MIGRATION_LOCK = 0x696e6c6574;

const RUN_COLUMNS = `seq, ${runColumns(true)}`;

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
 * leases; trigger changes are announced with NOTIFY.
 */
export class PostgresStore implements Store {
  readonly kind = "postgres" as const;
  private readonly group: AsyncGroupCommit<IngestRecord, { deduplicated: boolean }>;
  /**
   * Counted Activity rows, grouped like ingest commits: a flood of refusals is a few statements,
   * each of a few rows (a batch is merged by counted row first, so it may be large).
   */
  private readonly counts: AsyncGroupCommit<ActivityRecord, void>;
  private closed = false;
  /** Migration versions this open applied (for `inlet migrate`). */
  applied: number[] = [];

  private readonly deadlineMs: number;

  private readonly sweepChunk: number;

  private constructor(private readonly sql: SQL, options: PostgresStoreOptions) {
    this.deadlineMs = options.deadlineMs ?? 10_000;
    this.sweepChunk = Math.max(1, options.sweepChunk ?? SWEEP_CHUNK);
    this.group = new AsyncGroupCommit((items) => this.commitBatch(items), options.groupCommit === false ? 1 : 256, options.groupCommit === false ? 64 : 2);
    this.counts = new AsyncGroupCommit((rows) => this.countBatch(rows), 4096, 1);
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
      await store.migrate(where);
    } catch (error) {
      await sql.close().catch(() => {});
      if (error instanceof SchemaTooNew) throw error;
      throw new StoreUnavailable(`${where}: ${describeConnectError(error, url)}`);
    }
    return store;
  }

  private async migrate(where: string): Promise<void> {
    this.applied = await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`;
      const done = new Set<number>((await tx`SELECT version FROM schema_migrations`).map((r: { version: number }) => r.version));
      const known = Math.max(...PG_MIGRATIONS.map((m) => m.version));
      const found = Math.max(0, ...done);
      if (found > known) throw new SchemaTooNew(where, found, known);
      const applied: number[] = [];
      for (const migration of PG_MIGRATIONS) {
        if (done.has(migration.version)) continue;
        await tx.unsafe(migration.sql);
        await tx`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${migration.version}, ${migration.name}, ${new Date().toISOString()})`;
        applied.push(migration.version);
      }
      return applied;
    });
  }

  /** Runs `work`, turning every database failure into StoreUnavailable (the API answers 503). */
  private async guard<T>(work: (sql: SQL) => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreUnavailable("the store is closed");
    try {
      return await withinDeadline(this.deadlineMs, work(this.sql));
    } catch (error) {
      if (error instanceof UnknownCursor || error instanceof StoreUnavailable) throw error;
      throw new StoreUnavailable(`PostgreSQL: ${(error as Error)?.message ?? error}`);
    }
  }

  /** /readyz: answers within 2 s either way. */
  async ping(): Promise<boolean> {
    if (this.closed) return false;
    return withinDeadline(2000, this.sql`SELECT 1`).then(
      () => true,
      () => false,
    );
  }

  getMeta(key: string): Promise<string | null> {
    return this.guard(async (sql) => ((await sql`SELECT value FROM meta WHERE key = ${key}`)[0]?.value as string | undefined) ?? null);
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.guard(async (sql) => {
      await sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`;
    });
  }

  /** Sets `key` only if it has no value yet; returns the value that holds (for values several instances race to create). */
  setMetaIfAbsent(key: string, value: string): Promise<string> {
    return this.guard(async (sql) => {
      await sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
      return (await sql`SELECT value FROM meta WHERE key = ${key}`)[0].value as string;
    });
  }

  listTriggers(): Promise<StoredTrigger[]> {
    return this.guard(async (sql) => (await sql`SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers ORDER BY seq DESC`).map(toTrigger));
  }

  getTrigger(id: string): Promise<StoredTrigger | null> {
    return this.guard(async (sql) => {
      const [row] = await sql`SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers WHERE id = ${id}`;
      return row ? toTrigger(row) : null;
    });
  }

  /** Runs `change` and bumps the revision in one transaction; NOTIFY goes out on commit. */
  private changeTriggers<T>(change: (tx: SQL) => Promise<T>, changed: (result: T) => boolean = () => true): Promise<T> {
    return this.guard((sql) =>
      sql.begin(async (tx) => {
        const result = await change(tx);
        if (changed(result)) {
          const [row] = await tx`UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'triggers_revision' RETURNING value`;
          await tx.notify(TRIGGERS_CHANNEL, row.value as string);
        }
        return result;
      }) as Promise<T>,
    );
  }

  insertTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.changeTriggers(async (tx) => {
      await tx`INSERT INTO triggers (id, token, config, secret_sealed, app_secret_sealed, armed_until, created_at, updated_at)
        VALUES (${c.id}, ${c.token}, ${JSON.stringify(c)}, ${trigger.secretSealed}, ${trigger.appSecretSealed}, ${trigger.armedUntil ?? null}, ${c.createdAt}, ${c.updatedAt})`;
    });
  }

  updateTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.changeTriggers(async (tx) => {
      await tx`UPDATE triggers SET token = ${c.token}, config = ${JSON.stringify(c)}, secret_sealed = ${trigger.secretSealed},
        app_secret_sealed = ${trigger.appSecretSealed}, armed_until = ${trigger.armedUntil ?? null}, updated_at = ${c.updatedAt} WHERE id = ${c.id}`;
    });
  }

  deleteTrigger(id: string): Promise<boolean> {
    return this.changeTriggers(
      async (tx) => {
        const removed = (await tx`DELETE FROM triggers WHERE id = ${id}`).count > 0;
        if (!removed) return false;
        await tx`DELETE FROM runs WHERE trigger_id = ${id}`;
        await tx`DELETE FROM activity WHERE trigger_id = ${id}`;
        await tx`DELETE FROM dedup_keys WHERE trigger_id = ${id}`;
        return true;
      },
      (removed) => removed,
    );
  }

  triggersRevision(): Promise<number> {
    return this.guard(async (sql) => Number((await sql`SELECT value FROM meta WHERE key = 'triggers_revision'`)[0]?.value ?? 0));
  }

  /** Calls `onChange` on every trigger change from any instance, and after each (re)subscription. */
  watchTriggers(onChange: () => void): Promise<TriggerWatch> {
    return this.guard(async (sql) => {
      const subscription = await sql.listen(TRIGGERS_CHANNEL, () => onChange(), () => onChange());
      return { close: () => subscription.unlisten().catch(() => {}) };
    });
  }

  hasDedupKey(triggerId: string, keyHash: string, now: Date): Promise<boolean> {
    return this.guard(
      async (sql) => (await sql`SELECT 1 FROM dedup_keys WHERE trigger_id = ${triggerId} AND key_hash = ${keyHash} AND expires_ms > ${now.getTime()}`).length > 0,
    );
  }

  commitIngest(record: IngestRecord): Promise<{ deduplicated: boolean }> {
    if (this.closed) return Promise.reject(new StoreUnavailable("the store is closed"));
    return this.group.submit(record);
  }

  recordActivity(row: ActivityRecord): Promise<void> {
    return this.commitIngest({ dedup: null, run: null, activity: row }).then(() => undefined);
  }

  countActivity(row: ActivityRecord): Promise<void> {
    if (this.closed) return Promise.reject(new StoreUnavailable("the store is closed"));
    return this.counts.submit(row);
  }

  private async countBatch(rows: ActivityRecord[]): Promise<void[]> {
    const payload = countBatch(rows);
    await this.guard(async (sql) => {
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
    const rows: Array<{ i: number }> = await this.guard(async (sql) => {
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

  claimRuns(owner: string, limit: number, leaseMs: number, now: Date): Promise<ClaimedRun[]> {
    if (limit <= 0) return Promise.resolve([]);
    const until = now.getTime() + leaseMs;
    return this.guard(async (sql) => {
      // Queued runs, and running runs whose lease lapsed (their instance is gone); rows another
      // instance is claiming right now are skipped, not waited for.
      const rows: RunRow[] = await sql.unsafe(
        `UPDATE runs SET status = 'running', lease_owner = $1, lease_until_ms = $2
         WHERE seq IN (
           SELECT r.seq FROM runs r
           WHERE (r.status = 'queued' AND ${ORDERED_RUN_MAY_START}) OR (r.status = 'running' AND r.lease_until_ms < $3)
           ORDER BY r.lane, r.seq LIMIT $4
           FOR UPDATE SKIP LOCKED)
         RETURNING ${RUN_COLUMNS}`,
        [owner, until, now.getTime(), limit],
      );
      return [...rows].sort(bySeq).map((row) => toRun(row) as ClaimedRun);
    });
  }

  claimRun(id: string, owner: string, leaseMs: number, now: Date): Promise<ClaimedRun | null> {
    return this.guard(async (sql) => {
      const [row] = await sql.unsafe(
        `UPDATE runs SET status = 'running', lease_owner = $1, lease_until_ms = $2
         WHERE seq IN (SELECT r.seq FROM runs r WHERE r.id = $3 AND r.status = 'queued' AND ${ORDERED_RUN_MAY_START} FOR UPDATE SKIP LOCKED)
         RETURNING ${RUN_COLUMNS}`,
        [owner, now.getTime() + leaseMs, id],
      );
      return row ? (toRun(row) as ClaimedRun) : null;
    });
  }

  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.guard(async (sql) => {
      await sql`UPDATE runs SET lease_until_ms = ${now.getTime() + leaseMs}
        WHERE lease_owner = ${owner} AND status = 'running' AND id = ANY(${sql.array(ids, "TEXT")})`;
    });
  }

  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean> {
    return this.guard(
      async (sql) =>
        (await sql`UPDATE runs SET attempts = ${attempts}, result_json = ${jsonOrNull(result)}
          WHERE id = ${id} AND lease_owner = ${owner} AND status = 'running'`).count > 0,
    );
  }

  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean> {
    return this.guard(
      async (sql) =>
        (await sql`UPDATE runs SET status = ${finish.status}, result_json = ${jsonOrNull(finish.result)}, error = ${finish.error},
          attempts = ${finish.attempts}, finished_at = ${finish.finishedAt}, lease_owner = NULL, lease_until_ms = NULL
          WHERE id = ${id} AND lease_owner = ${owner} AND status = 'running'`).count > 0,
    );
  }

  releaseRuns(owner: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.guard(async (sql) => {
      await sql`UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL
        WHERE lease_owner = ${owner} AND status = 'running' AND id = ANY(${sql.array(ids, "TEXT")})`;
    });
  }

  requeueAbandonedRuns(now: Date): Promise<number> {
    // Other instances may be executing runs right now: only lapsed leases are abandoned.
    return this.guard(
      async (sql) =>
        (await sql`UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL
          WHERE status = 'running' AND (lease_until_ms IS NULL OR lease_until_ms < ${now.getTime()})`).count,
    );
  }

  private async cursor(sql: SQL, table: "runs" | "activity", before: string | undefined): Promise<string> {
    if (before === undefined) return "9223372036854775807";
    const [row] = table === "runs" ? await sql`SELECT seq FROM runs WHERE id = ${before}` : await sql`SELECT seq FROM activity WHERE id = ${before}`;
    if (!row) throw new UnknownCursor(`before: no ${table === "runs" ? "run" : "Activity row"} with id ${JSON.stringify(before)}`);
    return String(row.seq);
  }

  listActivity(triggerId: string, page: Page): Promise<ActivityRecord[]> {
    return this.guard(async (sql) => {
      const seq = await this.cursor(sql, "activity", page.before);
      const rows = await sql.unsafe(`SELECT ${ACTIVITY_COLUMNS} FROM activity WHERE trigger_id = $1 AND seq < $2::bigint ORDER BY seq DESC LIMIT $3`, [triggerId, seq, page.limit]);
      return rows.map(toActivity);
    });
  }

  getActivity(id: string): Promise<ActivityRecord | null> {
    return this.guard(async (sql) => {
      const [row] = await sql.unsafe(`SELECT ${ACTIVITY_COLUMNS}, request_json FROM activity WHERE id = $1`, [id]);
      return row ? toActivity(row) : null;
    });
  }

  measureAlert(triggerId: string, rule: AlertRule, now: Date, createdAt: string): Promise<number> {
    return this.guard(async (sql) => {
      const { sql: text, params } = measureQuery(rule, triggerId, now.getTime(), (n) => `$${n}`);
      const [row] = await sql.unsafe(text, params);
      return measureOf(rule, row?.v ?? null, now.getTime(), createdAt);
    });
  }

  listAlerts(): Promise<AlertRecord[]> {
    return this.guard(async (sql) => ((await sql`SELECT * FROM alerts ORDER BY trigger_id, id`) as AlertRow[]).map(toAlert));
  }

  transitionAlert(next: AlertRecord, from: AlertState | null, notification: { id: string; payload: string } | null): Promise<boolean> {
    return this.guard((sql) =>
      sql.begin(async (tx) => {
        // A conditional write: of instances evaluating together, exactly one moves the alert.
        const moved =
          from === null
            ? await tx`INSERT INTO alerts (id, trigger_id, kind, state, since, value, threshold) VALUES (${next.id}, ${next.triggerId}, ${next.kind}, ${next.state}, ${next.since}, ${next.value}, ${next.threshold}) ON CONFLICT (id) DO NOTHING`
            : await tx`UPDATE alerts SET state = ${next.state}, since = ${next.since}, value = ${next.value}, threshold = ${next.threshold} WHERE id = ${next.id} AND state = ${from}`;
        if (moved.count === 0) return false;
        if (notification) {
          // An earlier transition's notification not yet delivered is superseded (see the SQLite store).
          await tx`DELETE FROM alert_outbox WHERE alert_id = ${next.id} AND delivered_at IS NULL`;
          await tx`INSERT INTO alert_outbox (id, alert_id, payload, next_ms) VALUES (${notification.id}, ${next.id}, ${notification.payload}, 0)`;
        }
        return true;
      }),
    );
  }

  dropAlerts(keep: (alertId: string) => boolean): Promise<void> {
    return this.guard(async (sql) => {
      const gone = ((await sql`SELECT id FROM alerts`) as Array<{ id: string }>).map((r) => r.id).filter((id) => !keep(id));
      if (gone.length === 0) return;
      await sql`DELETE FROM alerts WHERE id = ANY(${sql.array(gone, "TEXT")})`;
      await sql`DELETE FROM alert_outbox WHERE delivered_at IS NULL AND alert_id = ANY(${sql.array(gone, "TEXT")})`;
    });
  }

  claimAlertNotifications(owner: string, limit: number, now: Date, leaseMs: number): Promise<AlertNotification[]> {
    return this.guard(async (sql) => {
      const rows: Array<{ id: string; alert_id: string; payload: string; attempts: number }> = await sql.unsafe(
        `UPDATE alert_outbox SET lease_owner = $1, lease_until_ms = $2 WHERE seq IN (
           SELECT seq FROM alert_outbox WHERE ${dueNotification("$3")}
           ORDER BY seq LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING id, alert_id, payload, attempts`,
        [owner, now.getTime() + leaseMs, now.getTime(), limit],
      );
      return rows.map((row) => ({ id: row.id, alertId: row.alert_id, payload: row.payload, attempts: row.attempts }));
    });
  }

  settleAlertNotification(id: string, alertId: string, outcome: { deliveredAt: string } | { nextMs: number }): Promise<void> {
    return this.guard(async (sql) => {
      if ("deliveredAt" in outcome) {
        await sql`UPDATE alert_outbox SET delivered_at = ${outcome.deliveredAt}, lease_owner = NULL, lease_until_ms = NULL WHERE id = ${id}`;
        // A notification a later transition superseded is gone: the alert's new state was not notified.
        await sql`UPDATE alerts SET notified_at = ${outcome.deliveredAt} WHERE id = ${alertId} AND EXISTS (SELECT 1 FROM alert_outbox WHERE id = ${id})`;
      } else {
        await sql`UPDATE alert_outbox SET attempts = attempts + 1, next_ms = ${outcome.nextMs}, lease_owner = NULL, lease_until_ms = NULL WHERE id = ${id}`;
      }
    });
  }

  runsWaitingOnKey(): Promise<Record<string, number>> {
    return this.guard(async (sql) => {
      const rows: Array<{ trigger_id: string; n: string }> = await sql.unsafe(RUNS_WAITING_ON_KEY);
      return Object.fromEntries(rows.map((row) => [row.trigger_id, Number(row.n)]));
    });
  }

  countReplayable(query: ReplayQuery): Promise<number> {
    return this.guard(async (sql) => {
      const count = replayCountSql(query, (n) => `$${n}`);
      const [row] = await sql.unsafe(count.sql, count.params);
      return Number(row.n);
    });
  }

  listReplayable(query: ReplayQuery, afterSeq: number, limit: number): Promise<ReplayCandidate[]> {
    return this.guard(async (sql) => {
      const page = replayPageSql(query, afterSeq, limit, (n) => `$${n}`);
      const rows: Array<{ seq: string; id: string; request_id: string; json: string }> = await sql.unsafe(page.sql, page.params);
      return rows.map((row) => ({ seq: Number(row.seq), id: row.id, requestId: row.request_id, trigger: parseJson(row.json) }));
    });
  }

  listRuns(filter: { triggerId?: string; includeTrigger: boolean } & Page): Promise<RunRecord[]> {
    return this.guard(async (sql) => {
      const columns = runColumns(filter.includeTrigger);
      const seq = await this.cursor(sql, "runs", filter.before);
      const rows: RunRow[] = filter.triggerId
        ? await sql.unsafe(`SELECT ${columns} FROM runs WHERE trigger_id = $1 AND seq < $2::bigint ORDER BY seq DESC LIMIT $3`, [filter.triggerId, seq, filter.limit])
        : await sql.unsafe(`SELECT ${columns} FROM runs WHERE seq < $1::bigint ORDER BY seq DESC LIMIT $2`, [seq, filter.limit]);
      return rows.map(toRun);
    });
  }

  getRun(id: string): Promise<RunRecord | null> {
    return this.guard(async (sql) => {
      const [row] = await sql.unsafe(`SELECT ${runColumns(true)} FROM runs WHERE id = $1`, [id]);
      return row ? toRun(row) : null;
    });
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
      this.guard(async (sql) => ({
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
    return sweepInChunks(chunk, one, () => this.closed);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([this.group.drain(), this.counts.drain()]);
    this.closed = true;
    await this.sql.close({ timeout: 5 }).catch(() => {});
  }
}
