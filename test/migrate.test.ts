import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { SealedBox } from "../src/auth/sealed_box.ts";
import { PostgresStore } from "../src/store/postgres/postgres_store.ts";
import { MIGRATIONS } from "../src/store/sqlite/migrations.ts";
import { PG_MIGRATIONS } from "../src/store/postgres/migrations.ts";
import { SqliteStore } from "../src/store/sqlite/sqlite_store.ts";
import type { ActivityRecord } from "../src/records/activity.ts";
import type { RunRecord } from "../src/records/run.ts";
import type { AlertRecord } from "../src/records/alert.ts";
import { BUN, cli, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "./support/postgres.ts";

const MAIN = [BUN, "run", join(ROOT, "src/main.ts")];
/** Nothing of the caller's environment decides where data lives or which key seals it. */
const CLEAN = { INLET_DATABASE_URL: "", INLET_SECRET_KEY: "", INLET_ADMIN_TOKEN: "", INLET_DATA_DIR: "", INLET_LOG_REQUESTS: "false" };

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-migrate-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data dir as an older inlet left it: only the first migration applied. */
const olderDataDir = () => {
  const dir = tempDir();
  const db = new Database(join(dir, "inlet.db"), { create: true });
  db.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  db.exec(MIGRATIONS[0].sql);
  db.run("INSERT INTO schema_migrations VALUES (1, 'first', '2024-01-01T00:00:00Z')");
  db.close();
  return dir;
};

const migrate = (args: string[], env: Record<string, string> = {}) => cli(["migrate", ...args], { ...CLEAN, ...env });

/** A non-zero exit with one `inlet: …` line on stderr that matches `reason`. */
function expectRefused(result: { code: number; stderr: string; stdout: string }, reason: RegExp) {
  expect(result.code).not.toBe(0);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toStartWith("inlet: ");
  expect(result.stderr).toMatch(reason);
}

const freePort = () => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
};

test("help lists migrate and its --from-data-dir copy", async () => {
  const help = await cli(["help"]);
  expect(help.stdout).toContain("inlet migrate [--database-url URL | --data-dir DIR]");
  expect(help.stdout).toContain("inlet migrate --from-data-dir DIR --database-url URL");
});

describe("migrate on a SQLite data dir", () => {
  test("applies what is pending, then says the schema is up to date", async () => {
    const dir = olderDataDir();
    const first = await migrate(["--data-dir", dir]);
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(
      `applied migrations ${MIGRATIONS.slice(1)
        .map((m) => m.version)
        .join(", ")} to SQLite at ${join(dir, "inlet.db")}`,
    );
    const second = await migrate([], { INLET_DATA_DIR: dir });
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(`schema up to date (version ${MIGRATIONS.at(-1)!.version}): SQLite at ${join(dir, "inlet.db")}`);
  });

  test("a data dir without inlet.db is refused, not created", async () => {
    const dir = join(tempDir(), "typo");
    expectRefused(await migrate(["--data-dir", dir]), /has no inlet\.db: nothing to migrate/);
    expect(await Bun.file(join(dir, "inlet.db")).exists()).toBe(false);
  });

  test("--data-dir while INLET_DATABASE_URL is set is refused, not silently a migration of PostgreSQL", async () => {
    const dir = olderDataDir();
    expectRefused(
      await migrate(["--data-dir", dir], { INLET_DATABASE_URL: "postgres://u:p@127.0.0.1:1/x" }),
      /INLET_DATABASE_URL is set and would be migrated instead: unset it/,
    );
  });

  test("a file that is not SQLite is refused", async () => {
    const dir = tempDir();
    await Bun.write(join(dir, "inlet.db"), "not a database, just text that is long enough to have a header".repeat(20));
    expectRefused(await migrate(["--data-dir", dir]), /cannot be read as an SQLite database/);
  });
});

describe("bad input is refused before any database is touched", () => {
  const nowhere = "postgres://inlet@127.0.0.1:1/nowhere";

  test("--from-data-dir: missing dir, dir without inlet.db, no target, --data-dir beside it, stray words", async () => {
    const empty = tempDir();
    expectRefused(await migrate(["--from-data-dir", join(empty, "gone"), "--database-url", nowhere]), /data dir .*gone does not exist/);
    expectRefused(await migrate(["--from-data-dir", empty, "--database-url", nowhere]), /has no inlet\.db/);
    expect(await Bun.file(join(empty, "secret.key")).exists()).toBe(false);
    expectRefused(await migrate(["--from-data-dir", empty]), /--from-data-dir needs --database-url/);
    expectRefused(await migrate(["--from-data-dir", empty, "--data-dir", empty, "--database-url", nowhere]), /--data-dir has no use with --from-data-dir/);
    expectRefused(await migrate(["--from-data-dir"]), /--from-data-dir needs a value/);
    expectRefused(await migrate(["now", "--database-url", nowhere]), /unexpected argument now/);
    expectRefused(await migrate(["--database-url", "mysql://x@y/z"]), /--database-url/);
  });

  test("an unreachable PostgreSQL: a clear error naming it (password hidden) and a non-zero exit", async () => {
    const result = await migrate(["--database-url", `postgres://inlet:hunter2@127.0.0.1:${freePort()}/inlet`]);
    expectRefused(result, /PostgreSQL at postgres:\/\/inlet:\*\*\*@127\.0\.0\.1:\d+\/inlet/);
    expect(result.stderr).not.toContain("hunter2");
  });
});

const json = async (server: ServerProcess, token: string, path: string) => {
  const response = await fetch(server.url + path, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.json() as Promise<any>;
};

describe.skipIf(!postgresAvailable())("migrate with PostgreSQL", () => {
  test("on a fresh database: applies the migrations, then says the schema is up to date", async () => {
    const url = new URL(await freshDatabase((await sharedPostgres())!));
    url.password = "hunter2"; // trust authentication ignores it; it must never be printed
    const first = await migrate(["--database-url", url.toString()]);
    expect(first.code).toBe(0);
    const shown = url.toString().replace("hunter2", "***");
    expect(first.stdout.trim()).toBe(`applied migrations ${PG_MIGRATIONS.map((m) => m.version).join(", ")} to PostgreSQL at ${shown}`);
    const second = await migrate([], { INLET_DATABASE_URL: url.toString() });
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(`schema up to date (version ${PG_MIGRATIONS.at(-1)!.version}): PostgreSQL at ${shown}`);
    expect(first.stdout + second.stdout).not.toContain("hunter2");
  });

  test("a data dir moved with --from-data-dir serves the same triggers, secrets, dedup keys, runs and Activity", async () => {
    const source = tempDir();
    const base = "https://hooks.example.test";
    const old = await spawnServer(MAIN, ["--data-dir", source, "--base-url", base], { env: CLEAN });
    const admin = old.adminToken!;
    expect(admin).toMatch(/^inlet_/);
    const api = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
      const response = await fetch(server.url + path, {
        method,
        headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const create = async (input: unknown) => {
      const created = await api(old, "POST", "/api/triggers", input);
      expect(created.status).toBe(201);
      return created.body;
    };
    const orders = await create({ name: "orders", auth: { type: "hmac-sha256" }, dedup: { strategy: "header-value", headerName: "Idempotency-Key" } });
    const github = await create({ name: "gh", app: "github" });
    const stripe = await create({ name: "pay", app: "stripe", appSecret: "whsec_migrate_test" });
    const plain = await create({ name: "plain" });
    const ordersSecret = (await api(old, "GET", `/api/triggers/${orders.id}/secret`)).body.secret as string;
    const githubSecret = (await api(old, "GET", `/api/triggers/${github.id}/secret`)).body.secret as string;

    const hook = (server: ServerProcess, trigger: any, body: string, headers: Record<string, string>) =>
      fetch(`${server.url}/webhooks/${trigger.token}`, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });
    const signedOrder = (key: string, body = JSON.stringify({ order: key })) => ({
      body,
      headers: { "Idempotency-Key": key, "X-Signature": createHmac("sha256", ordersSecret).update(body).digest("hex") },
    });
    const githubDelivery = (id: string, event: string) => {
      const body = JSON.stringify({ zen: id });
      return {
        body,
        headers: {
          "X-GitHub-Delivery": id,
          "X-GitHub-Event": event,
          "X-Hub-Signature-256": `sha256=${createHmac("sha256", githubSecret).update(body).digest("hex")}`,
        },
      };
    };
    const stripeEvent = (id: string) => {
      const body = JSON.stringify({ id, type: "invoice.paid" });
      const t = Math.floor(Date.now() / 1000);
      return { body, headers: { "Stripe-Signature": `t=${t},v1=${createHmac("sha256", "whsec_migrate_test").update(`${t}.${body}`).digest("hex")}` } };
    };

    const k1 = signedOrder("k1");
    for (const request of [k1, signedOrder("k2"), signedOrder("k3"), k1]) expect((await hook(old, orders, request.body, request.headers)).status).toBe(200);
    expect((await hook(old, orders, "{}", { "X-Signature": "00".repeat(32) })).status).toBe(401);
    const d1 = githubDelivery("d1", "push");
    for (const request of [d1, githubDelivery("d2", "ping")]) expect((await hook(old, github, request.body, request.headers)).status).toBe(200);
    const evt = stripeEvent("evt_1");
    expect((await hook(old, stripe, evt.body, evt.headers)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await hook(old, plain, JSON.stringify({ i }), {})).status).toBe(200);

    // Everything a user can list, as the SQLite server answers it.
    const snapshot = async (server: ServerProcess) => {
      const runs = await json(server, admin, "/api/runs?limit=500&include=trigger");
      const activity: Record<string, unknown> = {};
      for (const t of [orders, github, stripe, plain]) activity[t.id] = await json(server, admin, `/api/triggers/${t.id}/activity?limit=500`);
      return {
        triggers: await json(server, admin, "/api/triggers"),
        runs,
        runsPage: await json(server, admin, `/api/runs?limit=3&before=${runs[2].id}`),
        ordersRuns: await json(server, admin, `/api/runs?triggerId=${orders.id}&limit=500`),
        activity,
        activityPage: await json(server, admin, `/api/triggers/${orders.id}/activity?limit=2&before=${(activity[orders.id] as any[])[1].id}`),
        secrets: [(await api(server, "GET", `/api/triggers/${orders.id}/secret`)).body, (await api(server, "GET", `/api/triggers/${github.id}/secret`)).body],
      };
    };
    const before = await snapshot(old);
    expect(before.runs).toHaveLength(3 + 2 + 1 + 5);
    expect((before.activity[orders.id] as any[]).map((r) => r.outcome)).toEqual(["auth_failed", "deduplicated", "run", "run", "run"]);
    // Copied while that server runs: the copy says so, naming the server, not a leftover WAL.
    const whileServed = await migrate(["--from-data-dir", source, "--database-url", await freshDatabase((await sharedPostgres())!)]);
    expect(whileServed.stderr).toContain(`warning: inlet serve is running on ${source} (it holds its serve.lock)`);
    old.proc.kill("SIGTERM");
    expect(await old.proc.exited).toBe(0);

    const sourceFiles = readdirSync(source).sort();
    expect(sourceFiles).toEqual(["inlet.db", "secret.key", "serve.lock"]);
    const keyFile = join(source, "secret.key");
    const key = readFileSync(keyFile, "utf8").trim();
    const url = await freshDatabase((await sharedPostgres())!);

    // A wrong or malformed key is refused before the database is touched.
    expectRefused(
      await migrate(["--from-data-dir", source, "--database-url", url], { INLET_SECRET_KEY: randomBytes(32).toString("base64") }),
      /not the key .* sealed with/,
    );
    expectRefused(
      await migrate(["--from-data-dir", source, "--database-url", url], { INLET_SECRET_KEY: "c2hvcnQ=" }),
      /INLET_SECRET_KEY must be base64 of exactly 32 bytes/,
    );

    // An empty database on which an instance already started with another key is refused too.
    const clash = await freshDatabase((await sharedPostgres())!);
    const early = await PostgresStore.open(clash);
    await early.setMeta("secret_key_fingerprint", "0".repeat(32));
    await early.close();
    expectRefused(await migrate(["--from-data-dir", source, "--database-url", clash]), /already records another secret key/);

    const moved = await migrate(["--from-data-dir", source], { INLET_DATABASE_URL: url });
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(`applied migrations ${PG_MIGRATIONS.map((m) => m.version).join(", ")} to PostgreSQL at`);
    expect(moved.stdout).toContain(`copied ${join(source, "inlet.db")} to PostgreSQL at`);
    expect(moved.stdout).toContain("4 triggers, 11 runs, 13 Activity rows, 6 dedup keys");
    expect(moved.stdout).toContain("meta: admin_token_sha256, secret_key_fingerprint (the admin token is unchanged)");
    expect(moved.stdout).toContain(`every instance needs INLET_SECRET_KEY set to the content of ${keyFile}`);
    expect(moved.stdout).toContain(`export INLET_SECRET_KEY="$(cat ${keyFile})"`);
    expect(moved.stdout).not.toContain("warning");

    // The data dir is left as it was: no file added (not even SQLite's -wal), the key kept.
    expect(readdirSync(source).sort()).toEqual(sourceFiles);
    expect(readFileSync(keyFile, "utf8").trim()).toBe(key);

    const fresh = tempDir();
    const pg = await spawnServer(MAIN, ["--database-url", url, "--data-dir", fresh, "--base-url", base], { env: { ...CLEAN, INLET_SECRET_KEY: key } });
    try {
      expect(pg.adminToken).toBeNull(); // the old token's hash came along: no new token is generated
      expect(await snapshot(pg)).toEqual(before);

      // The request signed for the SQLite server still verifies, and is a duplicate.
      expect((await hook(pg, orders, k1.body, k1.headers)).status).toBe(200);
      expect((await hook(pg, github, d1.body, d1.headers)).status).toBe(200);
      expect((await hook(pg, stripe, evt.body, evt.headers)).status).toBe(200);
      const activity = async (t: any) => (await json(pg, admin, `/api/triggers/${t.id}/activity?limit=500`)) as any[];
      expect((await activity(orders)).map((r) => r.outcome)).toEqual(["deduplicated", "auth_failed", "deduplicated", "run", "run", "run"]);
      expect((await activity(github))[0].outcome).toBe("deduplicated");
      expect((await activity(stripe))[0].outcome).toBe("deduplicated");
      expect(await json(pg, admin, "/api/runs?limit=500&include=trigger")).toEqual(before.runs);

      // New deliveries are runs, listed before the copied ones.
      const k4 = signedOrder("k4");
      expect((await hook(pg, orders, k4.body, k4.headers)).status).toBe(200);
      const fresh2 = stripeEvent("evt_2");
      expect((await hook(pg, stripe, fresh2.body, fresh2.headers)).status).toBe(200);
      const after = (await json(pg, admin, "/api/runs?limit=500")) as any[];
      expect(after.slice(0, 2).map((r) => r.triggerId)).toEqual([stripe.id, orders.id]);
      expect(after.slice(2).map((r) => r.id)).toEqual(before.runs.map((r: any) => r.id));
      expect(await json(pg, admin, `/api/runs?limit=3&before=${before.runs[2].id}`)).toEqual(before.runsPage);
      expect((await fetch(`${pg.url}/api/triggers`, { headers: { Authorization: "Bearer inlet_wrong" } })).status).toBe(401);
    } finally {
      pg.proc.kill("SIGTERM");
      await pg.proc.exited;
    }

    // The database now holds data: a second copy is refused, and changes nothing.
    expectRefused(
      await migrate(["--from-data-dir", source, "--database-url", url]),
      /is not empty \(4 triggers, 13 runs, 18 Activity rows, 8 dedup keys, 0 alert states\): copy into a new, empty database/,
    );

    // With the right INLET_SECRET_KEY given, it is checked and named in the next step.
    const other = await freshDatabase((await sharedPostgres())!);
    const checked = await migrate(["--from-data-dir", source, "--database-url", other], { INLET_SECRET_KEY: key });
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain("next: INLET_SECRET_KEY is");
  }, 60_000);

  test("running runs arrive queued without their lease; expired dedup keys stay behind; large tables go in batches", async () => {
    const dir = tempDir();
    const key = randomBytes(32);
    await Bun.write(join(dir, "secret.key"), key.toString("base64") + "\n");
    const box = SealedBox.fromKey(key);
    const sqlite = new SqliteStore(join(dir, "inlet.db"));
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    // A data dir from before the key fingerprint was recorded: the key is checked on a sealed secret.
    await sqlite.insertTrigger({
      config: { id: "t1", token: "tok1", name: "t1", createdAt: iso(now - 10_000), updatedAt: iso(now - 10_000) } as never,
      secretSealed: box.seal("s3cret"),
      appSecretSealed: null,
    });
    const run = (id: string, ms: number): RunRecord & { trigger: unknown } => ({
      id,
      triggerId: "t1",
      requestId: `req-${id}`,
      status: "succeeded",
      trigger: { body: { id } },
      result: { ok: id },
      attempts: 1,
      error: null,
      createdAt: iso(ms),
      finishedAt: iso(ms + 1),
    });
    const activityRow = (id: string, ms: number, runId: string | null): ActivityRecord => ({
      id: `a-${id}`,
      triggerId: "t1",
      at: iso(ms),
      requestId: `req-${id}`,
      outcome: runId ? "run" : "filtered",
      runId,
      detail: null,
    });
    await sqlite.commitIngest({
      dedup: { keyHash: "old", windowSeconds: 1 },
      run: run("r-old", now - 5000),
      activity: activityRow("old", now - 5000, "r-old"),
    });
    await sqlite.commitIngest({
      dedup: { keyHash: "live", windowSeconds: 3600 },
      run: run("r-live", now - 4000),
      activity: activityRow("live", now - 4000, "r-live"),
    });
    await sqlite.commitIngest({
      dedup: null,
      run: { ...run("r-held", now - 3000), status: "queued", result: null, attempts: 0, finishedAt: null },
      activity: activityRow("held", now - 3000, "r-held"),
    });
    // Running under a process that is gone, its lease an hour from lapsing.
    expect((await sqlite.claimRun("r-held", "gone-process", 3_600_000, new Date(now)))?.status).toBe("running");
    // Enough rows for several batches; ids that do not sort the way they were written.
    await Promise.all(Array.from({ length: 1200 }, (_, i) => sqlite.recordActivity(activityRow(`bulk-${(i * 7919) % 1200}`, now - 2000 + i, null))));
    const sqliteRuns = await sqlite.listRuns({ limit: 500, includeTrigger: true });
    const sqliteActivity = await sqlite.listActivity("t1", { limit: 500 });
    const sqliteActivityPage = await sqlite.listActivity("t1", { limit: 500, before: sqliteActivity[450].id });
    expect((await sqlite.getRun("r-held"))!.status).toBe("running");

    // Copied while the SQLite store is still open: it reads what is committed, and warns.
    const url = await freshDatabase((await sharedPostgres())!);
    const moved = await migrate(["--from-data-dir", dir, "--database-url", url]);
    await sqlite.close();
    expect(moved.stderr).toContain(`warning: ${join(dir, "inlet.db")}-wal exists: a server may still be running on ${dir}`);
    expect(moved.stdout).toContain("1 triggers, 3 runs, 1203 Activity rows, 1 dedup keys");
    expect(moved.stdout).toContain("1 runs that were running are queued again");
    expect(moved.stdout).toContain("1 expired dedup keys left behind");
    expect(moved.stdout).toContain("meta: secret_key_fingerprint");

    const pg = await PostgresStore.open(url);
    const raw = new SQL(url, { max: 1 });
    try {
      expect(await pg.getMeta("secret_key_fingerprint")).toBe(box.fingerprint());
      const [held] = await raw`SELECT status, lease_owner, lease_until_ms FROM runs WHERE id = 'r-held'`;
      expect(held).toEqual({ status: "queued", lease_owner: null, lease_until_ms: null });
      expect(await pg.listRuns({ limit: 500, includeTrigger: true })).toEqual(sqliteRuns.map((r) => (r.id === "r-held" ? { ...r, status: "queued" } : r)));
      expect(await pg.listActivity("t1", { limit: 500 })).toEqual(sqliteActivity);
      expect(await pg.listActivity("t1", { limit: 500, before: sqliteActivity[450].id })).toEqual(sqliteActivityPage);
      expect(await pg.hasDedupKey("t1", "live", new Date())).toBe(true);
      expect((await raw`SELECT count(*)::int AS n FROM dedup_keys WHERE key_hash = 'old'`)[0].n).toBe(0);
      expect(Number(await pg.getMeta("triggers_revision"))).toBeGreaterThan(1);
      // The requeued run is picked up by the next instance that claims work.
      const claimed = await pg.claimRuns("new-instance", 10, 60_000, new Date());
      expect(claimed.map((r) => r.id)).toEqual(["r-held"]);
    } finally {
      await raw.close();
      await pg.close();
    }
  }, 60_000);

  test("a copy that fails half-way leaves the database empty (one transaction)", async () => {
    const dir = tempDir();
    const sqlite = new SqliteStore(join(dir, "inlet.db"));
    const at = new Date().toISOString();
    await sqlite.insertTrigger({
      config: { id: "t1", token: "tok1", name: "t1", createdAt: at, updatedAt: at } as never,
      secretSealed: null,
      appSecretSealed: null,
    });
    await Promise.all(
      Array.from({ length: 700 }, (_, i) =>
        sqlite.recordActivity({ id: `a${i}`, triggerId: "t1", at, requestId: `r${i}`, outcome: "filtered", runId: null, detail: null }),
      ),
    );
    // PostgreSQL text cannot hold NUL: the last batch fails after earlier ones were sent.
    await sqlite.recordActivity({ id: "bad", triggerId: "t1", at, requestId: "r-bad", outcome: "error", runId: null, detail: "nul \u0000 here" });
    await sqlite.close();

    const url = await freshDatabase((await sharedPostgres())!);
    const failed = await migrate(["--from-data-dir", dir, "--database-url", url]);
    expectRefused(failed, /copy to PostgreSQL at .* failed, nothing was written/);
    const raw = new SQL(url, { max: 1 });
    try {
      const [counts] =
        await raw`SELECT (SELECT count(*) FROM triggers)::int AS t, (SELECT count(*) FROM activity)::int AS a, (SELECT count(*) FROM meta WHERE key <> 'triggers_revision')::int AS m`;
      expect(counts).toEqual({ t: 0, a: 0, m: 0 });
    } finally {
      await raw.close();
    }
    // Fixed at the source, the copy goes through into the same database.
    const db = new Database(join(dir, "inlet.db"));
    db.run("DELETE FROM activity WHERE id = 'bad'");
    db.close();
    const retried = await migrate(["--from-data-dir", dir, "--database-url", url]);
    expect(retried.stderr).toBe("");
    expect(retried.stdout).toContain("1 triggers, 0 runs, 700 Activity rows, 0 dedup keys");
    expect(retried.stdout).toContain("next: no stored secret and no key recorded");
  }, 60_000);

  test("on a database an older inlet migrated, `inlet migrate` and instances starting at once apply what is pending once, and keep its rows", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    const raw = new SQL(url, { max: 1 });
    try {
      await raw.begin(async (tx) => {
        await tx.unsafe("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)");
        await tx.unsafe(PG_MIGRATIONS[0].sql);
        await tx`INSERT INTO schema_migrations VALUES (1, 'first', '2024-01-01T00:00:00Z')`;
        await tx`INSERT INTO runs (id, trigger_id, request_id, status, trigger_json, attempts, created_at, created_ms)
          VALUES ('r-old', 't1', 'req-old', 'queued', '{"body":{}}', 0, '2024-01-01T00:00:00.000Z', 1704067200000)`;
      });
      const [cliRun, ...stores] = await Promise.all([migrate(["--database-url", url]), ...Array.from({ length: 3 }, () => PostgresStore.open(url))]);
      await Promise.all(stores.map((store) => store.close()));
      expect(cliRun).toMatchObject({ code: 0, stderr: "" });
      const pending = PG_MIGRATIONS.slice(1).map((m) => m.version);
      const printed = cliRun.stdout.trim() === `applied migrations ${pending.join(", ")} to PostgreSQL at ${url}` ? pending : [];
      if (printed.length === 0) expect(cliRun.stdout.trim()).toBe(`schema up to date (version ${PG_MIGRATIONS.at(-1)!.version}): PostgreSQL at ${url}`);
      expect([printed, ...stores.map((store) => store.applied)].filter((applied) => applied.length > 0)).toEqual([pending]);
      const versions = await raw`SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version`;
      expect([...versions]).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
    } finally {
      await raw.close();
    }
    // The run written under the old schema reads as an unordered live run, and is claimed.
    const pg = await PostgresStore.open(url);
    try {
      expect(await pg.getRun("r-old")).toMatchObject({ status: "queued", replayOf: null, orderingKey: null, trigger: { body: {} } });
      expect((await pg.claimRuns("new-instance", 5, 60_000, new Date())).map((r) => r.id)).toEqual(["r-old"]);
    } finally {
      await pg.close();
    }
  }, 60_000);

  test("a data dir an older inlet left is refused before PostgreSQL is touched, naming the command that brings it up to date", async () => {
    const dir = olderDataDir();
    const url = await freshDatabase((await sharedPostgres())!);
    expectRefused(await migrate(["--from-data-dir", dir, "--database-url", url]), new RegExp(`is at schema version 1, .*'inlet migrate --data-dir ${dir}'`));
    const raw = new SQL(url, { max: 1 });
    try {
      expect((await raw`SELECT to_regclass('schema_migrations') AS t`)[0].t).toBeNull();
    } finally {
      await raw.close();
    }
    expect((await migrate(["--data-dir", dir])).code).toBe(0);
    const moved = await migrate(["--from-data-dir", dir, "--database-url", url]);
    expect(moved.stderr).toBe("");
    expect(moved.stdout).toContain("0 triggers, 0 runs, 0 Activity rows, 0 dedup keys");
  }, 60_000);

  test("what later features store comes along: replays and their lane, ordering keys, filtered requests, counted refusals, alert states, undelivered notifications and paused destinations", async () => {
    const dir = tempDir();
    const sqlite = new SqliteStore(join(dir, "inlet.db"));
    const now = Date.now();
    const at = new Date(now).toISOString();
    await sqlite.insertTrigger({
      config: { id: "t1", token: "tok1", name: "t1", createdAt: at, updatedAt: at } as never,
      secretSealed: null,
      appSecretSealed: null,
    });
    const row = (id: string, outcome: ActivityRecord["outcome"], runId: string | null, request?: unknown): ActivityRecord => ({
      id,
      triggerId: "t1",
      at,
      requestId: `req-${id}`,
      outcome,
      runId,
      detail: null,
      ...(request === undefined ? {} : { request }),
    });
    const filtered = row("a-filtered", "filtered", null, { body: { kept: true } });
    await sqlite.commitIngest({ dedup: null, run: null, activity: filtered });
    // Written in this order: a replay of the filtered request, then two live runs of one key.
    const queued = (id: string, extra: Partial<RunRecord>): RunRecord & { trigger: unknown } => ({
      id,
      triggerId: "t1",
      requestId: `req-${id}`,
      status: "queued",
      trigger: { body: { id } },
      result: null,
      attempts: 0,
      error: null,
      createdAt: at,
      finishedAt: null,
      ...extra,
    });
    const runs = [queued("r-replay", { replayOf: filtered.id }), queued("r-k1", { orderingKey: "key-hash" }), queued("r-k2", { orderingKey: "key-hash" })];
    for (const r of runs) await sqlite.commitIngest({ dedup: null, run: r, activity: row(`a-${r.id}`, "run", r.id) });
    // A flood's refusals counted on one row of their minute and reason.
    const counted = { ...row("a-counted", "auth_failed", null), detail: "wrong bearer token", count: 440 };
    await sqlite.countActivity(counted);
    // One alert fired and was notified; another's notification failed twice and was held by the
    // stopped server when it stopped.
    const alert = (id: string): AlertRecord => ({ id, triggerId: "t1", kind: "backlog", state: "firing", since: at, value: 3, threshold: 1, notifiedAt: null });
    await sqlite.transitionAlert(alert("t1/backlog:1:"), null, { id: "n-delivered", payload: '{"n":1}' });
    await sqlite.settleAlertNotification("n-delivered", "t1/backlog:1:", { deliveredAt: at });
    await sqlite.transitionAlert(alert("t1/backlog:2:"), null, { id: "n-pending", payload: '{"n":2}' });
    for (let i = 0; i < 2; i++) await sqlite.settleAlertNotification("n-pending", "t1/backlog:2:", { nextMs: now - 1000 });
    expect((await sqlite.claimAlertNotifications("stopped-server", 10, new Date(now), 3_600_000)).map((n) => n.id)).toEqual(["n-pending"]);
    const sqliteRuns = await Promise.all(runs.map((r) => sqlite.getRun(r.id)));
    const sqliteFiltered = await sqlite.getActivity(filtered.id);
    const sqliteAlerts = await sqlite.listAlerts();
    expect(sqliteAlerts.map((a) => a.notifiedAt)).toEqual([at, null]);
    // A paused destination (another than the runs' own, which are claimed below).
    await sqlite.setPaused("t1", "crm", true);
    await sqlite.close();

    const url = await freshDatabase((await sharedPostgres())!);
    const moved = await migrate(["--from-data-dir", dir, "--database-url", url]);
    expect(moved.stderr).toBe("");
    expect(moved.stdout).toContain("1 triggers, 3 runs, 5 Activity rows, 0 dedup keys");
    expect(moved.stdout).toContain("2 alert states, 1 notifications not yet delivered");
    expect(moved.stdout).toContain("1 destination states (pauses and breakers)");
    const pg = await PostgresStore.open(url);
    try {
      expect(await Promise.all(runs.map((r) => pg.getRun(r.id)))).toEqual(sqliteRuns);
      expect(await pg.getActivity(filtered.id)).toEqual(sqliteFiltered!);
      expect(sqliteFiltered?.request).toEqual({ body: { kept: true } });
      // The counted row keeps its count, and stays the one its minute and reason count on.
      expect(await pg.getActivity(counted.id)).toMatchObject({ count: 440, requestId: counted.requestId });
      await pg.countActivity({ ...counted, id: "a-later", requestId: "req-later", count: 1 });
      expect(await pg.getActivity(counted.id)).toMatchObject({ count: 441 });
      expect(await pg.getActivity("a-later")).toBeNull();
      expect(await pg.listAlerts()).toEqual(sqliteAlerts);
      expect((await pg.destinationStates("t1")).map((d) => [d.destination, d.paused])).toEqual([["crm", true]]);
      // The undelivered notification is due at once, without the stopped server's lease; the delivered one is never sent again.
      expect(await pg.claimAlertNotifications("new-instance", 10, new Date(), 30_000)).toEqual([
        { id: "n-pending", alertId: "t1/backlog:2:", payload: '{"n":2}', attempts: 2 },
      ]);
      // Live runs before replays (the lane came along), and the key's second run waits for its first.
      expect((await pg.claimRuns("new-instance", 1, 60_000, new Date())).map((r) => r.id)).toEqual(["r-k1"]);
      expect((await pg.claimRuns("new-instance", 10, 60_000, new Date())).map((r) => r.id)).toEqual(["r-replay"]);
    } finally {
      await pg.close();
    }
  }, 60_000);
});
