import { afterAll, expect, test } from "bun:test";
import { existsSync, fstatSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeContract } from "../../../test/store/store_contract.ts";
import { reportOnlyAlertsContract } from "../../../test/store/report_only_alerts_contract.ts";
import { waitFor } from "../../../test/support/server.ts";
import { Database } from "bun:sqlite";
import { SchemaTooNew, StoreUnavailable } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";
import { SqliteStore, SWEEP_SQL } from "./sqlite_store.ts";
import { CLAIM_SQL } from "./run_leases.ts";
import { replayCountSql, replayPageSql } from "../replay_where.ts";
import type { ReplayQuery } from "../../records/ingest.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
storeContract("sqlite", async (options) => new SqliteStore(join(dir, `db-${n++}.sqlite`), options));
reportOnlyAlertsContract("sqlite", async () => new SqliteStore(join(dir, `db-${n++}.sqlite`)));

test("migrations apply once: reopening keeps data and schema", async () => {
  const path = join(dir, "reopen.sqlite");
  const a = new SqliteStore(path);
  await a.setMeta("kept", "yes");
  await a.close();
  const b = new SqliteStore(path);
  expect(await b.getMeta("kept")).toBe("yes");
  await b.close();
});

test("a new database gets 8 KB pages; one made with SQLite's default 4 KB keeps them and works", async () => {
  const pageSize = (path: string) => {
    const db = new Database(path, { readonly: true });
    const size = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
    db.close();
    return size;
  };
  const fresh = join(dir, "pages-new.sqlite");
  const a = new SqliteStore(fresh);
  await a.setMeta("kept", "yes");
  await a.close();
  expect(pageSize(fresh)).toBe(8192);

  // A data dir from before: its tables were created with 4 KB pages, which cannot change now.
  const older = join(dir, "pages-old.sqlite");
  const seed = new Database(older, { create: true });
  seed.exec("PRAGMA page_size = 4096");
  seed.exec("CREATE TABLE leftover (x)");
  seed.close();
  const b = new SqliteStore(older);
  await b.setMeta("kept", "yes");
  expect(await b.getMeta("kept")).toBe("yes");
  await b.close();
  expect(pageSize(older)).toBe(4096);
});

test("a database migrated by a newer inlet is refused, not written to", async () => {
  const path = join(dir, "newer.sqlite");
  const first = new SqliteStore(path);
  expect(first.applied).toEqual(MIGRATIONS.map((m) => m.version));
  await first.close();
  const db = new Database(path);
  db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', '2030-01-01')");
  db.close();
  expect(() => new SqliteStore(path)).toThrow(SchemaTooNew);
  expect(() => new SqliteStore(path)).toThrow(new RegExp(`schema version 99, newer than this inlet knows \\(${MIGRATIONS.at(-1)!.version}\\)`));
});

test("a closed store refuses work with StoreUnavailable, and leaves no WAL behind (a WAL says a server may still be running)", async () => {
  const path = join(dir, "closed.sqlite");
  const s = new SqliteStore(path);
  await s.setMeta("k", "v");
  expect(existsSync(`${path}-wal`)).toBe(true);
  await s.close();
  expect(existsSync(`${path}-wal`)).toBe(false);
  expect(await s.ping()).toBe(false);
  await expect(s.getMeta("x")).rejects.toThrow("closed");
});

test("an ingest that fails part-way leaves nothing behind, and the others of its batch still commit", async () => {
  const s = new SqliteStore(join(dir, "atomic.sqlite"));
  const at = new Date();
  const row = (id: string, runId: string | null) => ({ id, triggerId: "t", at: at.toISOString(), requestId: id, outcome: "run" as const, runId, detail: null });
  const run = (id: string) => ({
    id,
    triggerId: "t",
    requestId: id,
    status: "succeeded" as const,
    trigger: { body: {} },
    result: null,
    attempts: 1,
    error: null,
    createdAt: at.toISOString(),
    finishedAt: at.toISOString(),
  });
  // Submitted in one turn: one batch. The second's run id collides with the first's, after its
  // dedup key was written: that key and its Activity row must not survive.
  const results = await Promise.allSettled([
    s.commitIngest({ dedup: { keyHash: "k1", windowSeconds: 60 }, run: run("run-1"), activity: row("a1", "run-1") }),
    s.commitIngest({ dedup: { keyHash: "k2", windowSeconds: 60 }, run: run("run-1"), activity: row("a2", "run-1") }),
    s.commitIngest({ dedup: { keyHash: "k3", windowSeconds: 60 }, run: run("run-3"), activity: row("a3", "run-3") }),
  ]);
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(await s.hasDedupKey("t", "k1", at)).toBe(true);
  expect(await s.hasDedupKey("t", "k2", at)).toBe(false);
  expect(await s.hasDedupKey("t", "k3", at)).toBe(true);
  expect((await s.listActivity("t", { limit: 10 })).map((r) => r.id).sort()).toEqual(["a1", "a3"]);
  await s.close();
});

test("commits flushed by the store itself still checkpoint: the WAL stays bounded however much is written, and everything is there after reopening", async () => {
  const path = join(dir, "checkpoints.sqlite");
  const s = new SqliteStore(path);
  const at = new Date().toISOString();
  const body = { text: "x".repeat(2000) };
  const total = 16000; // ~32 MB of runs: the WAL checkpoints at ~1000 pages (8 MB of 8 KB pages)
  for (let i = 0; i < total; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) => {
        const id = `run-${i + j}`;
        return s.commitIngest({
          dedup: null,
          run: {
            id,
            triggerId: "t",
            requestId: id,
            status: "succeeded",
            trigger: { body },
            result: null,
            attempts: 1,
            error: null,
            createdAt: at,
            finishedAt: at,
          },
          activity: { id: `a-${i + j}`, triggerId: "t", at, requestId: id, outcome: "run", runId: id, detail: null },
        });
      }),
    );
  }
  const walBytes = statSync(`${path}-wal`).size;
  expect(walBytes).toBeLessThan(total * 2000 * 0.5);
  await s.close();
  const reopened = new SqliteStore(path);
  expect((await reopened.getRun(`run-${total - 1}`))?.trigger).toEqual({ body });
  expect(await reopened.listRuns({ triggerId: "t", limit: 500, includeTrigger: false })).toHaveLength(500);
  await reopened.close();
});

test("an ingest is answered only once the WAL flush after its commit has finished; a failed flush fails it and every write after it", async () => {
  const flushes: Array<{ finish(error?: Error): void }> = [];
  const flushed = new Set<number>();
  const flushWal = (fd: number) =>
    new Promise<void>((resolve, reject) => (flushed.add(fstatSync(fd).ino), flushes.push({ finish: (error) => (error ? reject(error) : resolve()) })));
  const path = join(dir, "durable.sqlite");
  const s = new SqliteStore(path, { flushWal });
  const at = new Date().toISOString();
  const ingest = (id: string) =>
    s.commitIngest({
      dedup: null,
      run: {
        id,
        triggerId: "t",
        requestId: id,
        status: "succeeded",
        trigger: { body: {} },
        result: null,
        attempts: 1,
        error: null,
        createdAt: at,
        finishedAt: at,
      },
      activity: { id: `a-${id}`, triggerId: "t", at, requestId: id, outcome: "run", runId: id, detail: null },
    });
  // Each write's flush has begun once the store asked for it.
  const flushBegun = (n: number) => waitFor(`flush ${n} begun`, () => flushes.length >= n);
  let answered = false;
  const first = ingest("r1").then(() => (answered = true));
  await flushBegun(1);
  // Committed (a reader sees it) but not flushed: the caller is still waiting.
  expect(await s.getRun("r1")).not.toBeNull();
  expect(flushes).toHaveLength(1);
  expect(answered).toBe(false);
  // The file flushed is the WAL, where the commit's frames are (synchronous = NORMAL leaves them unflushed).
  expect([...flushed]).toEqual([statSync(`${path}-wal`).ino]);
  expect(statSync(path).ino).not.toBe(statSync(`${path}-wal`).ino);
  flushes[0].finish();
  await first;
  expect(answered).toBe(true);

  // A write outside group commit (meta, triggers) waits for its flush too.
  let metaDone = false;
  const meta = s.setMeta("k", "v").then(() => (metaDone = true));
  await flushBegun(2);
  expect(flushes).toHaveLength(2);
  expect(metaDone).toBe(false);
  flushes[1].finish();
  await meta;

  const second = ingest("r2");
  await flushBegun(3);
  flushes[2].finish(new Error("EIO"));
  await expect(second).rejects.toThrow(StoreUnavailable);
  await expect(second).rejects.toThrow("committed, but the WAL could not be flushed to disk: EIO");
  // The WAL may now have a hole a later flush would cover: nothing more is acknowledged, and the
  // store says it is not ready, until a restart.
  await expect(ingest("r3")).rejects.toThrow(StoreUnavailable);
  await expect(s.setMeta("k", "w")).rejects.toThrow(StoreUnavailable);
  expect(flushes).toHaveLength(3);
  expect(await s.ping()).toBe(false);
  await s.close();
});

test("asking for due alert notifications when none is due commits nothing and flushes nothing", async () => {
  let flushes = 0;
  const s = new SqliteStore(join(dir, "idle-claims.sqlite"), { flushWal: async () => void flushes++ });
  const now = new Date();
  for (let i = 0; i < 5; i++) expect(await s.claimAlertNotifications("o", 10, now, 30_000)).toEqual([]);
  expect(flushes).toBe(0);
  // One due: claimed through a write, durable before it is handed out.
  const alert = {
    id: "t/silence::60",
    triggerId: "t",
    kind: "silence" as const,
    state: "firing" as const,
    since: now.toISOString(),
    value: 90,
    threshold: 60,
    notifiedAt: null,
  };
  await s.transitionAlert(alert, null, { id: "n1", payload: "{}" });
  const before = flushes;
  expect((await s.claimAlertNotifications("o", 10, now, 30_000)).map((n) => n.id)).toEqual(["n1"]);
  expect(flushes).toBe(before + 1);
  await s.close();
});

test("the run queue's bookkeeping is answered at commit, never behind a WAL flush; an accepted request still waits for its flush", async () => {
  const held: Array<() => void> = [];
  let hold = false;
  let flushes = 0;
  const flushWal = () => (flushes++, hold ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve());
  const s = new SqliteStore(join(dir, "idle-runs.sqlite"), { flushWal });
  const now = new Date();
  const at = now.toISOString();
  const queued = (id: string) => ({
    dedup: null,
    run: {
      id,
      triggerId: "t",
      requestId: id,
      status: "queued" as const,
      trigger: { body: {} },
      result: null,
      attempts: 0,
      error: null,
      createdAt: at,
      finishedAt: null,
    },
    activity: { id: `a-${id}`, triggerId: "t", at, requestId: id, outcome: "run" as const, runId: id, detail: null },
  });
  // Idle polls flush nothing.
  for (let i = 0; i < 5; i++) expect(await s.claimRuns("o", 4, 30_000, now)).toEqual([]);
  expect(flushes).toBe(0);
  await s.commitIngest(queued("r1"));
  expect(flushes).toBe(1);

  // An accepted request whose flush has not finished is not answered; meanwhile a claim, an
  // attempt and a run's end go through, answered at commit.
  hold = true;
  let accepted = false;
  const ingest = s.commitIngest(queued("r2")).then(() => (accepted = true));
  await waitFor("the request's flush begun", () => held.length === 1);
  // Not r2: it is committed, but its flush is under way, so its request is not answered yet.
  expect((await s.claimRuns("o", 4, 30_000, now)).map((r) => r.id)).toEqual(["r1"]);
  expect(await s.recordAttempt("r1", "o", 1, { n: 1 })).toBe(true);
  expect(await s.finishRun("r1", "o", { status: "succeeded", result: null, error: null, attempts: 1, finishedAt: at })).toBe(true);
  expect((await s.getRun("r1"))?.status).toBe("succeeded");
  expect(accepted).toBe(false);
  expect(held).toHaveLength(1);
  held[0]();
  await ingest;
  expect(accepted).toBe(true);
  // On disk now: the next claim takes it.
  expect((await s.claimRuns("o", 4, 30_000, now)).map((r) => r.id)).toEqual(["r2"]);
  await s.close();
});

test("each sweep statement finds its rows through an index: none reads every finished run", async () => {
  const path = join(dir, "sweep-plans.sqlite");
  await new SqliteStore(path).close();
  const db = new Database(path);
  const plan = (sql: string) =>
    db
      .query<{ detail: string }, [number, number]>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(0, 1)
      .map((row) => row.detail)
      .join(" | ");
  expect(plan(SWEEP_SQL.dedupKeys)).toContain("SEARCH dedup_keys USING PRIMARY KEY (expires_ms<?)");
  expect(plan(SWEEP_SQL.activity)).toContain("INDEX activity_by_time (at_ms<?)");
  expect(plan(SWEEP_SQL.runs)).toContain("INDEX runs_by_age (created_ms<?)");
  for (const sql of Object.values(SWEEP_SQL)) expect(plan(sql)).not.toMatch(/\bSCAN (dedup_keys|activity|runs)\b/);
  db.close();
});

test("a claim finds destinations with queued runs and their startable runs by seeks on runs_destination_queue, never by a sort or a scan", async () => {
  const path = join(dir, "claim-plans.sqlite");
  await new SqliteStore(path).close();
  const db = new Database(path);
  const plan = (sql: string, params: Array<string | number>) =>
    db
      .query<{ detail: string }, Array<string | number>>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params)
      .map((row) => row.detail)
      .join(" | ");
  const queued = plan(CLAIM_SQL.queuedDestinations, []);
  expect(queued).toContain("runs_destination_queue (status=? AND trigger_id=? AND destination>?)");
  expect(queued).not.toMatch(/\bSCAN runs\b/);
  const startable = plan(CLAIM_SQL.startable, ["t", "d", 10, "o", 5, 8]);
  expect(startable).toContain("SEARCH r USING INDEX runs_destination_queue (status=? AND trigger_id=? AND destination=?)");
  expect(startable).not.toContain("TEMP B-TREE");
  db.close();
});

test("a bulk replay's selection finds each request's later attempts through the partial indexes of replays and Filtered rows, never by reading a table", async () => {
  const path = join(dir, "replay-plans.sqlite");
  await new SqliteStore(path).close();
  const db = new Database(path);
  const plan = ({ sql, params }: { sql: string; params: Array<string | number> }) =>
    db
      .query<{ detail: string }, Array<string | number>>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params)
      .map((row) => row.detail)
      .join(" | ");
  const queries: ReplayQuery[] = [
    { triggerId: "t", source: "runs" },
    { triggerId: "t", source: "runs", statuses: ["failed"], sinceMs: 0, untilMs: 1 },
    { triggerId: "t", source: "filtered" },
    { triggerId: "t", source: "filtered", sinceMs: 0, untilMs: 1 },
  ];
  for (const query of queries) {
    for (const selection of [replayCountSql(query, () => "?"), replayPageSql(query, 0, 10, () => "?")]) {
      const detail = plan(selection);
      // The outer rows come through the trigger's indexes; `later` and `replay` are the NOT EXISTS lookups.
      expect(detail).toMatch(query.source === "runs" ? /SEARCH runs USING INDEX runs_by_trigger/ : /SEARCH activity USING INDEX activity_by_trigger/);
      if (query.source === "runs") expect(detail).toContain("SEARCH later USING INDEX runs_replays_by_request (request_id=?");
      else {
        expect(detail).toContain("SEARCH later USING INDEX activity_filtered_by_request (request_id=?");
        expect(detail).toContain("SEARCH replay USING INDEX runs_replays_by_request (request_id=?");
      }
      expect(detail).not.toMatch(/\bSCAN (runs|activity|later|replay)\b/);
    }
  }
  db.close();
});
