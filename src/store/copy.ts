import { SQL } from "bun";
import { BASE_URL_META, KEY_FINGERPRINT_META } from "../records/meta_keys.ts";
import { redactUrl } from "../config/redact_url.ts";
import { TRIGGERS_CHANNEL } from "./postgres/postgres_store.ts";
import type { SqliteSource } from "./sqlite_source.ts";

/** The target database cannot take the copy (not empty, another key): nothing was written. */
export class CopyRefused extends Error {
  override name = "CopyRefused";
  readonly code = "copy_refused";
}

export interface CopySummary {
  triggers: number;
  runs: number;
  /** Runs that were `running` in the data dir and arrive `queued` (their process is gone). */
  requeued: number;
  activity: number;
  dedupKeys: number;
  /** Dedup keys left behind because they had expired. */
  expiredKeys: number;
  /** Alert states (each rule's ok/firing, so a firing alert is not notified again). */
  alerts: number;
  /** Destinations' states (paused, the breaker), so a paused destination stays paused after the move. */
  destinationStates: number;
  /** Alert notifications not yet delivered (delivered by an instance, without the stopped server's lease). */
  pendingNotifications: number;
  meta: string[];
}

export interface CopyOptions {
  /** Dedup keys that expire at or before `now` are not copied; copied keys are marked seen `now`. */
  now: Date;
  /** The key fingerprint to record when the data dir has none (older data dirs). */
  fingerprint: string | null;
  /** A batch is sent when it holds this many rows… */
  batchRows?: number;
  /** …or this many characters of column text (run payloads can be large). */
  batchChars?: number;
}

/**
 * One table's copy: rows read from SQLite in `seq` order, inserted into PostgreSQL with the
 * same `seq`, so newest-first listings and `before` cursors behave exactly as they did.
 */
interface TableCopy {
  table: string;
  /** SQLite query, in insertion order; `$now` is bound to the copy time. */
  select: string;
  /** PostgreSQL column → type, in the order of `select`'s columns. */
  columns: Record<string, string>;
  identity: boolean;
}

const TABLES: TableCopy[] = [
  {
    table: "triggers",
    select: "SELECT seq, id, token, config, secret_sealed, app_secret_sealed, armed_until, created_at, updated_at FROM triggers ORDER BY seq",
    columns: {
      seq: "bigint",
      id: "text",
      token: "text",
      config: "text",
      secret_sealed: "text",
      app_secret_sealed: "text",
      armed_until: "text",
      created_at: "text",
      updated_at: "text",
    },
    identity: true,
  },
  {
    // Leases are not copied: a `running` run belonged to the stopped SQLite process, so it is
    // queued again, as that process would have done at its next start (at-least-once).
    table: "runs",
    select: `SELECT seq, id, trigger_id, request_id, CASE WHEN status = 'running' THEN 'queued' ELSE status END AS status,
      trigger_json, result_json, attempts, error, created_at, finished_at, created_ms, replay_of, lane, ordering_key, destination FROM runs ORDER BY seq`,
    columns: {
      seq: "bigint",
      id: "text",
      trigger_id: "text",
      request_id: "text",
      status: "text",
      trigger_json: "text",
      result_json: "text",
      attempts: "integer",
      error: "text",
      created_at: "text",
      finished_at: "text",
      created_ms: "bigint",
      replay_of: "text",
      lane: "integer",
      ordering_key: "text",
      destination: "text",
    },
    identity: true,
  },
  {
    table: "activity",
    select:
      "SELECT seq, id, trigger_id, at, at_ms, request_id, outcome, run_id, detail, request_json, count, counted_minute, run_ids FROM activity ORDER BY seq",
    columns: {
      seq: "bigint",
      id: "text",
      trigger_id: "text",
      at: "text",
      at_ms: "bigint",
      request_id: "text",
      outcome: "text",
      run_id: "text",
      detail: "text",
      request_json: "text",
      count: "integer",
      counted_minute: "bigint",
      run_ids: "text",
    },
    identity: true,
  },
  {
    // SQLite does not keep when a key was seen; PostgreSQL only writes that column, so the copy time does.
    // In the table's own key order (expiry first), read straight off the live range: ordered by
    // trigger and hash, every live key was sorted first. Nothing depends on the order here.
    table: "dedup_keys",
    select: "SELECT trigger_id, key_hash, $now AS seen_ms, expires_ms FROM dedup_keys WHERE expires_ms > $now ORDER BY expires_ms, trigger_id, key_hash",
    columns: { trigger_id: "text", key_hash: "text", seen_ms: "bigint", expires_ms: "bigint" },
    identity: false,
  },
  {
    // Without its state an alert that fired would be notified again by the first instance (docs/store.md#alerts-in-the-store).
    table: "alerts",
    select: "SELECT id, trigger_id, kind, state, since, value, threshold, notified_at FROM alerts ORDER BY id",
    columns: {
      id: "text",
      trigger_id: "text",
      kind: "text",
      state: "text",
      since: "text",
      value: "double precision",
      threshold: "double precision",
      notified_at: "text",
    },
    identity: false,
  },
  {
    // A paused destination stays paused, and an open breaker open, on the new store (README "Limits, the breaker and pause").
    table: "destination_state",
    select: `SELECT trigger_id, destination, CASE WHEN paused THEN 'true' ELSE 'false' END AS paused, breaker, failures, open_until_ms, open_ms,
      opened_at_ms, last_start_ms, window_count FROM destination_state ORDER BY trigger_id, destination`,
    columns: {
      trigger_id: "text",
      destination: "text",
      paused: "boolean",
      breaker: "text",
      failures: "integer",
      open_until_ms: "bigint",
      open_ms: "bigint",
      opened_at_ms: "bigint",
      last_start_ms: "double precision",
      window_count: "integer",
    },
    identity: false,
  },
  {
    // In their order, under new seqs; leases are dropped like the runs': the process holding them is gone.
    table: "alert_outbox",
    select: "SELECT id, alert_id, payload, attempts, next_ms, delivered_at FROM alert_outbox ORDER BY seq",
    columns: { id: "text", alert_id: "text", payload: "text", attempts: "integer", next_ms: "bigint", delivered_at: "text" },
    identity: false,
  },
];

const insertSql = ({ table, columns, identity }: TableCopy) => {
  const names = Object.keys(columns).join(", ");
  const types = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(", ");
  return `INSERT INTO ${table} (${names}) ${identity ? "OVERRIDING SYSTEM VALUE " : ""}
    SELECT ${names} FROM json_to_recordset($1::text::json) AS x(${types})`;
};

const textSize = (row: Record<string, unknown>) => {
  let n = 0;
  for (const value of Object.values(row)) n += typeof value === "string" ? value.length : 8;
  return n;
};

/** Reads `spec`'s rows from SQLite and inserts them in batches; returns how many. */
async function copyTable(tx: SQL, source: SqliteSource, spec: TableCopy, now: number, maxRows: number, maxChars: number): Promise<number> {
  const insert = insertSql(spec);
  const statement = source.db.query<Record<string, unknown>, [] | [{ now: number }]>(spec.select);
  let batch: Record<string, unknown>[] = [];
  let chars = 0;
  let total = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.unsafe(insert, [JSON.stringify(batch)]);
    total += batch.length;
    batch = [];
    chars = 0;
  };
  // iterate() steps through the rows one at a time: only one batch is ever in memory.
  for (const row of spec.select.includes("$now") ? statement.iterate({ now }) : statement.iterate()) {
    batch.push(row);
    chars += textSize(row);
    if (batch.length >= maxRows || chars >= maxChars) await flush();
  }
  await flush();
  if (spec.identity && total > 0) {
    // New rows must sort after the copied ones.
    await tx.unsafe(`SELECT setval(pg_get_serial_sequence('${spec.table}', 'seq'), (SELECT max(seq) FROM ${spec.table}))`);
  }
  return total;
}

/**
 * Copies an embedded SQLite data dir into an empty, migrated PostgreSQL database in one
 * transaction: all of it or nothing. Sealed secrets are copied as they are (instances then need
 * the data dir's key as INLET_SECRET_KEY); the meta values come along (admin token hash, key
 * fingerprint), and the trigger revision is moved past both stores' so every instance reloads.
 */
export async function copySqliteToPostgres(source: SqliteSource, url: string, options: CopyOptions): Promise<CopySummary> {
  const now = options.now.getTime();
  const sql = new SQL(url, { max: 1, connectionTimeout: 5 });
  try {
    return (await sql.begin(async (tx) => {
      // Writers on the target (another copy, an instance started too early) wait until the copy is done.
      await tx.unsafe("LOCK TABLE triggers, runs, activity, dedup_keys, meta, alerts, alert_outbox, destination_state IN EXCLUSIVE MODE");
      const [held] = await tx.unsafe(
        "SELECT (SELECT count(*) FROM triggers)::int AS triggers, (SELECT count(*) FROM runs)::int AS runs, (SELECT count(*) FROM activity)::int AS activity, (SELECT count(*) FROM dedup_keys)::int AS keys, (SELECT count(*) FROM alerts)::int AS alerts",
      );
      if (held.triggers + held.runs + held.activity + held.keys + held.alerts > 0) {
        throw new CopyRefused(
          `PostgreSQL at ${redactUrl(url)} is not empty (${held.triggers} triggers, ${held.runs} runs, ${held.activity} Activity rows, ${held.keys} dedup keys, ${held.alerts} alert states): copy into a new, empty database`,
        );
      }
      const meta = new Map(source.meta);
      meta.delete("triggers_revision");
      // The SQLite server's address is not the PostgreSQL instances': each records its own at start.
      meta.delete(BASE_URL_META);
      if (!meta.has(KEY_FINGERPRINT_META) && options.fingerprint) meta.set(KEY_FINGERPRINT_META, options.fingerprint);
      const [existing] = await tx`SELECT value FROM meta WHERE key = ${KEY_FINGERPRINT_META}`;
      const fingerprint = meta.get(KEY_FINGERPRINT_META);
      if (existing && fingerprint && existing.value !== fingerprint) {
        throw new CopyRefused(
          `PostgreSQL at ${redactUrl(url)} already records another secret key (an instance started on it with a different INLET_SECRET_KEY): copy into a new, empty database`,
        );
      }

      const requeued = source.db.query<{ n: number }, []>("SELECT count(*) AS n FROM runs WHERE status = 'running'").get()!.n;
      const expiredKeys = source.db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM dedup_keys WHERE expires_ms <= ?").get(now)!.n;
      const pendingNotifications = source.db.query<{ n: number }, []>("SELECT count(*) AS n FROM alert_outbox WHERE delivered_at IS NULL").get()!.n;
      const counts: number[] = [];
      for (const spec of TABLES) counts.push(await copyTable(tx, source, spec, now, options.batchRows ?? 500, options.batchChars ?? 4 * 1024 * 1024));

      for (const [key, value] of meta) {
        await tx`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`;
      }
      const sourceRevision = Number(source.meta.get("triggers_revision") ?? 0) || 0;
      const [revision] = await tx`INSERT INTO meta (key, value) VALUES ('triggers_revision', ${String(sourceRevision + 1)})
        ON CONFLICT (key) DO UPDATE SET value = (GREATEST(meta.value::bigint, ${sourceRevision}::bigint) + 1)::text RETURNING value`;
      await tx`SELECT pg_notify(${TRIGGERS_CHANNEL}, ${revision.value as string})`;
      const [triggers, runs, activity, dedupKeys, alerts, destinationStates] = counts;
      return { triggers, runs, requeued, activity, dedupKeys, expiredKeys, alerts, destinationStates, pendingNotifications, meta: [...meta.keys()].sort() };
    })) as CopySummary;
  } finally {
    await sql.close({ timeout: 5 }).catch(() => {});
  }
}
