import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { freshDatabase, postgresAvailable, startCluster, type PostgresCluster } from "../support/postgres.ts";
import { BUN, ROOT, spawnServer, type ServerProcess } from "../support/process.ts";
import { waitFor } from "../support/server.ts";

const until = <T>(what: string, check: () => Promise<T> | T, timeoutMs = 20_000, every = 20) => waitFor(what, check, timeoutMs, every);

/**
 * PostgreSQL going away under running `inlet serve` instances, end to end. The cluster is this
 * file's own (startCluster, not the shared one), so stopping it disturbs no other test.
 */

const ADMIN = "outage-admin-token-0123456789abcdef";
const SECRET_KEY = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
const MAIN = [BUN, "run", join(ROOT, "src/main.ts")];
/** No answer may take longer than this, up or down (Bun SQL's default connect timeout is 30 s). */
const ANSWER_BOUND_MS = 10_000;

interface Instance extends ServerProcess {
  stderr: () => string;
}

interface Sent {
  status: number;
  requestId: string | null;
  retryAfter: string | null;
  ms: number;
}

/** Logs a measured time, so the run shows it. */
const measured = (what: string, value: string) => console.log(`[outage] ${what}: ${value}`);
const ms = (n: number) => `${Math.round(n)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe.skipIf(!postgresAvailable())("PostgreSQL outage", () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  let dataDir: string;
  let a: Instance;
  let b: Instance;
  let up = true;
  const spawned: Instance[] = [];

  // The http workflow's target: records deliveries by run id.
  const deliveries = new Map<string, number>();
  /** When set, the target holds each delivery until it resolves (a run executing across an outage). */
  let hold: { arrived: () => void; release: Promise<void> } | null = null;
  const target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const runId = request.headers.get("x-inlet-run-id")!;
      deliveries.set(runId, (deliveries.get(runId) ?? 0) + 1);
      if (hold) {
        hold.arrived();
        await hold.release;
      }
      await Bun.sleep(30);
      return new Response("ok");
    },
  });

  const startInstance = async (): Promise<Instance> => {
    const server = await spawnServer(MAIN, ["--database-url", databaseUrl, "--data-dir", dataDir, "--log-requests", "false", "--run-concurrency", "2"], {
      env: { INLET_ADMIN_TOKEN: ADMIN, INLET_SECRET_KEY: SECRET_KEY },
    });
    // spawnServer drains stderr (warnings while the database is down), so the child never blocks on a full pipe.
    const instance = { ...server, stderr: server.errors };
    spawned.push(instance);
    return instance;
  };

  const stopCluster = async () => {
    up = false;
    await cluster.stop();
  };
  const startClusterAgain = async () => {
    await cluster.start();
    up = true;
  };

  const api = async (server: Instance, method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { Authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_BOUND_MS),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  const createTrigger = async (server: Instance, input: Record<string, unknown>) => {
    const created = await api(server, "POST", "/api/triggers", input);
    if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body as { id: string; token: string; url: string };
  };

  const webhook = (server: Instance, token: string) => `${server.url}/webhooks/${token}`;

  const send = async (url: string, body: string): Promise<Sent> => {
    const started = performance.now();
    const response = await fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json" }, signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    await response.arrayBuffer();
    return {
      status: response.status,
      requestId: response.headers.get("x-request-id"),
      retryAfter: response.headers.get("retry-after"),
      ms: performance.now() - started,
    };
  };

  const status = async (url: string) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    await response.arrayBuffer();
    return response.status;
  };

  /** Every row of a paginated list call (runs or activity). */
  const listAll = async (server: Instance, path: string): Promise<any[]> => {
    const rows: any[] = [];
    let before = "";
    for (;;) {
      const page = await api(server, "GET", `${path}${path.includes("?") ? "&" : "?"}limit=500${before ? `&before=${before}` : ""}`);
      if (page.status !== 200) throw new Error(`${path}: ${page.status} ${JSON.stringify(page.body)}`);
      rows.push(...page.body);
      if (page.body.length < 500) return rows;
      before = page.body[page.body.length - 1].id;
    }
  };
  const runsOf = (server: Instance, triggerId: string) => listAll(server, `/api/runs?triggerId=${triggerId}`);
  const activityOf = (server: Instance, triggerId: string) => listAll(server, `/api/triggers/${triggerId}/activity`);

  /** Both instances lived through it: no crash, no unhandled rejection. */
  const expectAlive = () => {
    for (const instance of [a, b]) {
      expect(instance.proc.exitCode).toBeNull();
      expect(instance.stderr()).not.toMatch(/unhandled|uncaught/i);
    }
  };

  /** Waits until `server` serves the trigger (its in-memory index has it). */
  const knows = (server: Instance, token: string) =>
    until("instance knows the trigger", async () => (await status(`${webhook(server, token)}?probe`)) !== 404, 10_000);

  beforeAll(async () => {
    cluster = await startCluster();
    databaseUrl = await freshDatabase(cluster.url);
    dataDir = mkdtempSync(join(tmpdir(), "inlet-outage-"));
    a = await startInstance();
    b = await startInstance();
  }, 60_000);

  afterAll(async () => {
    for (const instance of spawned) {
      instance.proc.kill("SIGTERM");
      const exited = await Promise.race([instance.proc.exited, Bun.sleep(10_000).then(() => null)]);
      if (exited === null) instance.proc.kill("SIGKILL");
    }
    target.stop(true);
    await cluster?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test("while PostgreSQL is down every webhook gets a prompt 503 + Retry-After, /readyz 503, /healthz 200; what got 200 before is kept, what got 503 left nothing", async () => {
    try {
      const trigger = await createTrigger(a, { name: "outage-basic" });
      await knows(b, trigger.token);
      const before: Sent[] = [];
      for (let i = 0; i < 20; i++) before.push(await send(webhook(i % 2 ? b : a, trigger.token), JSON.stringify({ before: i })));
      expect(before.map((s) => s.status)).toEqual(Array(20).fill(200));

      await stopCluster();
      const during: Sent[] = [];
      for (const server of [a, b]) {
        for (let i = 0; i < 10; i++) during.push(await send(webhook(server, trigger.token), JSON.stringify({ during: i })));
        // Concurrent ones too: a whole grouped batch fails together.
        during.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => send(webhook(server, trigger.token), JSON.stringify({ burst: i }))))));
        expect(await status(`${server.url}/readyz`)).toBe(503);
        expect(await status(`${server.url}/healthz`)).toBe(200);
      }
      for (const sent of during) {
        expect(sent.status).toBe(503);
        expect(sent.retryAfter).toBe("5");
        expect(sent.requestId).not.toBeNull();
        expect(sent.ms).toBeLessThan(ANSWER_BOUND_MS);
      }
      const latencies = during.map((s) => s.ms);
      measured("webhook 503 latency while down", `median ${ms(median(latencies))}, max ${ms(Math.max(...latencies))} (${during.length} requests)`);

      await startClusterAgain();
      await until("both instances ready again", async () => (await status(`${a.url}/readyz`)) === 200 && (await status(`${b.url}/readyz`)) === 200);
      const runs = await runsOf(a, trigger.id);
      const activity = await activityOf(b, trigger.id);
      const runRequests = runs.map((r) => r.requestId).sort();
      expect(runRequests).toEqual(before.map((s) => s.requestId!).sort());
      expect(
        activity
          .filter((r) => r.outcome === "run")
          .map((r) => r.requestId)
          .sort(),
      ).toEqual(runRequests);
      const refused = new Set(during.map((s) => s.requestId));
      expect(runs.filter((r) => refused.has(r.requestId))).toEqual([]);
      expect(activity.filter((r) => refused.has(r.requestId))).toEqual([]);
      expectAlive();
    } finally {
      if (!up) await startClusterAgain();
    }
  }, 90_000);

  test("recovers by itself: ingest, /readyz, the run queue and the LISTEN subscription come back without restarting inlet", async () => {
    // Reads pg_stat_activity: which sessions last ran LISTEN on the triggers channel.
    const observer = new SQL(databaseUrl, { max: 1 });
    try {
      const basic = await createTrigger(a, { name: "recovery-none" });
      const http = await createTrigger(a, { name: "recovery-http", workflow: { kind: "http", url: `http://127.0.0.1:${target.port}/` } });
      await knows(b, basic.token);
      await knows(b, http.token);

      await stopCluster();
      await until("both instances see the outage", async () => (await status(`${a.url}/readyz`)) === 503 && (await status(`${b.url}/readyz`)) === 503);
      // A few seconds down, so run-queue polls, trigger refreshes and LISTEN reconnects fail in between.
      await Bun.sleep(3000);
      await startClusterAgain();
      const restarted = performance.now();

      const since = () => performance.now() - restarted;
      const listening = async () =>
        Number(
          (await observer`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%inlet_triggers%'`)[0].n,
        );
      /** Creates a trigger through A and returns how long until B serves it (B's index is refreshed). */
      const propagation = async (name: string) => {
        const started = performance.now();
        const created = await createTrigger(a, { name });
        await until("B serves the trigger created on A", async () => (await status(`${webhook(b, created.token)}?probe`)) !== 404, 10_000, 5);
        return performance.now() - started;
      };
      const resubscribing = until("both instances LISTEN again", async () => (await listening()) === 2 && since(), 30_000);
      resubscribing.catch(() => {}); // awaited below; not an unhandled rejection if something fails first
      const [ingestA, ingestB, readyA, readyB] = await Promise.all([
        until("ingest 200 on A", async () => (await send(webhook(a, basic.token), "{}")).status === 200 && since()),
        until("ingest 200 on B", async () => (await send(webhook(b, basic.token), "{}")).status === 200 && since()),
        until("/readyz 200 on A", async () => (await status(`${a.url}/readyz`)) === 200 && since()),
        until("/readyz 200 on B", async () => (await status(`${b.url}/readyz`)) === 200 && since()),
      ]);
      measured("recovery after PostgreSQL is back", `ingest 200 A ${ms(ingestA)} / B ${ms(ingestB)}, /readyz 200 A ${ms(readyA)} / B ${ms(readyB)}`);
      expect(Math.max(ingestA, ingestB, readyA, readyB)).toBeLessThan(10_000);

      // A change made before the LISTEN connections are back (Bun reconnects them with a backoff
      // of 250 ms doubling to 32 s) still reaches B within about a second: the revision poll.
      const listenersThen = await listening();
      const early = await propagation("during-resubscribe");
      measured("trigger created on A right after recovery served by B", `${ms(early)} (${listenersThen} of 2 instances listening when it was made)`);
      expect(early).toBeLessThan(2500);
      const resubscribed = await resubscribing;
      measured("LISTEN resubscribed on both instances", `${ms(resubscribed)} after PostgreSQL was back`);

      // The run queue resumes: more runs than --run-concurrency, so some wait for its poll.
      const sent = await Promise.all(Array.from({ length: 8 }, (_, i) => send(webhook(i % 2 ? b : a, http.token), JSON.stringify({ after: i }))));
      expect(sent.map((s) => s.status)).toEqual(Array(8).fill(200));
      const runs = await until(
        "every run after recovery executed",
        async () => {
          const list = await runsOf(a, http.id);
          return list.length === 8 && list.every((r) => r.status === "succeeded") && list;
        },
        20_000,
        50,
      );
      for (const run of runs) expect(deliveries.get(run.id)).toBe(1);

      // A trigger change through A reaches B within about a second: NOTIFY once B listens again.
      const seen: number[] = [];
      for (let i = 0; i < 5; i++) seen.push(await propagation(`after-recovery-${i}`));
      measured("trigger created on A served by B after recovery", `median ${ms(median(seen))}, max ${ms(Math.max(...seen))}`);
      expect(Math.max(...seen)).toBeLessThan(2500);
      expectAlive();
    } finally {
      await observer.close();
      if (!up) await startClusterAgain();
    }
  }, 120_000);

  test("a PostgreSQL restart under 50 concurrent senders: every request gets 200 or 503, and every 200 is recorded exactly once", async () => {
    try {
      const trigger = await createTrigger(a, { name: "outage-load", dedup: { strategy: "disabled" } });
      await knows(b, trigger.token);
      const results: Sent[] = [];
      const failures: string[] = [];
      let sending = true;
      let seq = 0;
      const sender = async (server: Instance, n: number) => {
        while (sending) {
          const body = JSON.stringify({ sender: n, seq: seq++, nonce: crypto.randomUUID() });
          try {
            const sent = await send(webhook(server, trigger.token), body);
            results.push(sent);
            // While down, senders would spin: back off a little as a real one would.
            if (sent.status === 503) await Bun.sleep(20);
          } catch (error) {
            failures.push(String(error));
          }
        }
      };
      const count = (status: number) => results.filter((r) => r.status === status).length;
      const senders = Array.from({ length: 50 }, (_, i) => sender(i % 2 ? b : a, i));

      // About a second of load before, during and after the outage (at least; more on a slow machine).
      const phase = () => {
        const started = Date.now();
        return () => Date.now() - started >= 1000;
      };
      let long = phase();
      await until("load flowing", () => count(200) >= 200 && long());
      await stopCluster();
      long = phase();
      await until("503s while down", () => count(503) >= 50 && long());
      const okBeforeRestart = count(200);
      const refusedWhileDown = count(503);
      await startClusterAgain();
      long = phase();
      await until("200s again after the restart", () => count(200) >= okBeforeRestart + 300 && long(), 30_000);
      sending = false;
      await Promise.all(senders);

      expect(failures).toEqual([]);
      const other = results.filter((r) => r.status !== 200 && r.status !== 503);
      expect(other.map((r) => r.status)).toEqual([]);
      for (const r of results.filter((r) => r.status === 503)) expect(r.retryAfter).toBe("5");
      const slowest = Math.max(...results.map((r) => r.ms));
      expect(slowest).toBeLessThan(ANSWER_BOUND_MS);
      measured(
        "restart under load",
        `${results.length} requests: ${count(200)} × 200, ${count(503)} × 503 (${refusedWhileDown} before the restart), slowest answer ${ms(slowest)}`,
      );

      await until("both instances ready", async () => (await status(`${a.url}/readyz`)) === 200 && (await status(`${b.url}/readyz`)) === 200);
      const acknowledged = results.filter((r) => r.status === 200).map((r) => r.requestId!);
      const runs = await runsOf(b, trigger.id);
      const activity = (await activityOf(a, trigger.id)).filter((r) => r.outcome === "run");
      expect(runs.length).toBe(acknowledged.length);
      expect(activity.length).toBe(acknowledged.length);
      const runRequests = new Set(runs.map((r) => r.requestId));
      expect(acknowledged.filter((id) => !runRequests.has(id))).toEqual([]);
      expect(new Set(activity.map((r) => r.requestId)).size).toBe(acknowledged.length);
      expectAlive();
    } finally {
      if (!up) await startClusterAgain();
    }
  }, 120_000);

  test("an instance started while PostgreSQL is down exits non-zero with one line naming the redacted database URL", async () => {
    const withPassword = new URL(databaseUrl);
    withPassword.password = "not-to-be-printed";
    try {
      await stopCluster();
      const started = performance.now();
      const proc = Bun.spawn([...MAIN, "serve", "--port", "0", "--database-url", withPassword.toString(), "--data-dir", dataDir], {
        cwd: ROOT,
        env: { ...process.env, INLET_ADMIN_TOKEN: ADMIN, INLET_SECRET_KEY: SECRET_KEY },
        stdout: "pipe",
        stderr: "pipe",
      });
      const exited = await Promise.race([proc.exited, Bun.sleep(20_000).then(() => null)]);
      if (exited === null) proc.kill("SIGKILL");
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      measured("start with PostgreSQL down: exit after", ms(performance.now() - started));
      expect(exited).not.toBeNull();
      expect(exited).not.toBe(0);
      expect(stdout).not.toContain("listening");
      const lines = stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("inlet: ");
      expect(lines[0]).toContain(`postgres://inlet:***@127.0.0.1:${cluster.port}${withPassword.pathname}`);
      expect(stderr).not.toContain("not-to-be-printed");
    } finally {
      if (!up) await startClusterAgain();
    }
  }, 60_000);

  test("a frozen PostgreSQL (processes stopped, as in a network partition) gets webhooks a 503 within the store's deadline, not a hang", async () => {
    const pids = async () => {
      const postmaster = (await Bun.file(join(cluster.dataDir, "postmaster.pid")).text()).split("\n")[0].trim();
      const children = (await new Response(Bun.spawn(["pgrep", "-P", postmaster]).stdout).text()).split(/\s+/).filter(Boolean);
      return [postmaster, ...children];
    };
    const signal = async (name: "STOP" | "CONT") => {
      await Bun.spawn(["kill", `-${name}`, ...(await pids())]).exited;
    };
    const trigger = await createTrigger(a, { name: "frozen" });
    await knows(b, trigger.token);
    let frozen = false;
    try {
      await signal("STOP");
      frozen = true;
      const started = performance.now();
      const response = await fetch(webhook(a, trigger.token), {
        method: "POST",
        body: "{}",
        headers: { "Content-Type": "application/json" },
        signal: AbortSignal.timeout(30_000),
      });
      const took = performance.now() - started;
      measured("webhook answer while PostgreSQL is frozen", `${response.status} after ${ms(took)}`);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(took).toBeLessThan(20_000);
      expect(await status(`${a.url}/readyz`)).toBe(503);
      await signal("CONT");
      frozen = false;
      await until("ingest 200 again after the thaw", async () => (await send(webhook(a, trigger.token), "{}")).status === 200, 30_000, 100);
      expectAlive();
    } finally {
      if (frozen) await signal("CONT");
    }
  }, 90_000);

  test("a run that finishes while PostgreSQL is restarting has its end recorded once it is back: delivered once, not again after its lease", async () => {
    const http = await createTrigger(a, { name: "end-across-restart", workflow: { kind: "http", url: `http://127.0.0.1:${target.port}/` } });
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    hold = { arrived, release: new Promise<void>((resolve) => (release = resolve)) };
    try {
      expect((await send(webhook(a, http.token), JSON.stringify({ across: "restart" }))).status).toBe(200);
      await reached;
      await stopCluster();
      // The target answers while the database is down: the run's end cannot be written yet.
      release();
      await Bun.sleep(1500);
      await startClusterAgain();
      const [run] = await until(
        "the run is recorded as succeeded",
        async () => {
          const runs = await runsOf(a, http.id);
          return runs.length === 1 && runs[0].status === "succeeded" && runs;
        },
        30_000,
        100,
      );
      expect(deliveries.get(run.id)).toBe(1);
      expect(run.attempts).toBe(1);
      expectAlive();
    } finally {
      hold = null;
      release?.();
      if (!up) await startClusterAgain();
    }
  }, 90_000);
});
