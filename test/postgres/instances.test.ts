import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { SQL } from "bun";
import { PG_MIGRATIONS } from "../../src/store/postgres/migrations.ts";
import { dropDatabase, newSecretKey, startInstance, stopAll, waitFor, type Instance } from "../support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "../support/postgres.ts";

/**
 * Two real `inlet serve` processes on one PostgreSQL database
 * (docs/store.md#sqlite-and-postgresql): dedup stays exactly-once across instances, a configuration
 * change reaches the other instance within one second, a run whose instance died is taken over once
 * its lease lapses, workflow response mode answers from the instance that was asked, and instances
 * starting together migrate once.
 */

const ADMIN = "instances-admin-token-0123456789";
const SECRET_KEY = newSecretKey();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const databases: string[] = [];

async function newDatabase(): Promise<string> {
  const url = await freshDatabase((await sharedPostgres())!, "inlet_instances");
  databases.push(url);
  return url;
}

async function createTrigger(on: Instance, input: Record<string, unknown>): Promise<any> {
  const created = await on.api("POST", "/api/triggers", input);
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

async function revealSecret(on: Instance, id: string): Promise<string> {
  const revealed = await on.api("GET", `/api/triggers/${id}/secret`);
  if (revealed.status !== 200) throw new Error(`reveal failed: ${revealed.status} ${JSON.stringify(revealed.body)}`);
  return revealed.body.secret;
}

const sign = (alg: "sha256" | "sha512", secret: string, body: string) => ({ "X-Signature": `${alg}=${createHmac(alg, secret).update(body).digest("hex")}` });
const count = (values: string[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});

afterAll(async () => {
  await stopAll();
  for (const url of databases) await dropDatabase(url).catch(() => {});
});

describe.skipIf(!postgresAvailable())("two instances on one PostgreSQL database", () => {
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    const url = await newDatabase();
    // The first start migrates; the second then starts on a ready schema (concurrent starts are test 5).
    a = await startInstance("a", { databaseUrl: url, secretKey: SECRET_KEY, adminToken: ADMIN });
    b = await startInstance("b", { databaseUrl: url, secretKey: SECRET_KEY, adminToken: ADMIN });
  }, 120_000);

  describe("dedup is exactly-once across instances", () => {
    /** Fires every delivery at once, alternating between the instances, and checks each answer. */
    async function deliver(token: string, deliveries: Array<{ body: string; headers?: Record<string, string> }>): Promise<string[]> {
      const responses = await Promise.all(deliveries.map((d, i) => (i % 2 === 0 ? a : b).webhook(token, d.body, d.headers)));
      const requestIds: string[] = [];
      for (const response of responses) {
        expect(response.status).toBe(200);
        const requestId = response.headers.get("x-request-id")!;
        expect(requestId).toMatch(UUID);
        expect(await response.json()).toEqual({ received: true, request_id: requestId });
        requestIds.push(requestId);
      }
      expect(new Set(requestIds).size).toBe(deliveries.length);
      return requestIds;
    }

    /** Activity (read through `from`) has one row per request, the given runs and the rest deduplicated. */
    async function expectActivity(from: Instance, triggerId: string, requestIds: string[], runs: any[]) {
      const activity = (await from.api("GET", `/api/triggers/${triggerId}/activity?limit=500`)).body as any[];
      expect(activity).toHaveLength(requestIds.length);
      expect(new Set(activity.map((row) => row.requestId))).toEqual(new Set(requestIds));
      expect(count(activity.map((row) => row.outcome))).toEqual({ run: runs.length, deduplicated: requestIds.length - runs.length });
      const runRows = activity.filter((row) => row.outcome === "run");
      expect(new Set(runRows.map((row) => `${row.runId} ${row.requestId}`))).toEqual(new Set(runs.map((run) => `${run.id} ${run.requestId}`)));
      expect(activity.filter((row) => row.outcome === "deduplicated").every((row) => row.runId === null)).toBe(true);
    }

    test("payload-hash: 200 identical deliveries split across A and B make exactly one run", async () => {
      const t = await createTrigger(a, { name: "dedup-payload-hash", dedup: { strategy: "payload-hash" } });
      await waitFor("B knows the trigger", async () => (await b.api("GET", `/api/triggers/${t.id}`)).status === 200);
      const body = JSON.stringify({ order: 42, status: "paid" });
      const requestIds = await deliver(
        t.token,
        Array.from({ length: 200 }, () => ({ body })),
      );
      for (const from of [a, b]) {
        const runs = (await from.api("GET", `/api/runs?triggerId=${t.id}&limit=500`)).body as any[];
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ status: "succeeded", triggerId: t.id });
        expect(requestIds).toContain(runs[0].requestId);
        await expectActivity(from, t.id, requestIds, runs);
      }
    }, 120_000);

    test("header-value (delivery id): 200 deliveries of 5 ids, bodies all different, make exactly one run per id", async () => {
      const t = await createTrigger(b, { name: "dedup-header", dedup: { strategy: "header-value", headerName: "X-Delivery-Id" } });
      await waitFor("A knows the trigger", async () => (await a.api("GET", `/api/triggers/${t.id}`)).status === 200);
      const ids = ["d-0", "d-1", "d-2", "d-3", "d-4"];
      // Delivery i carries id i % 5 and goes to A when i is even: every id reaches both instances.
      const requestIds = await deliver(
        t.token,
        Array.from({ length: 200 }, (_, i) => ({ body: JSON.stringify({ attempt: i }), headers: { "X-Delivery-Id": ids[i % 5] } })),
      );
      const runs = (await a.api("GET", `/api/runs?triggerId=${t.id}&limit=500&include=trigger`)).body as any[];
      expect(runs).toHaveLength(ids.length);
      expect(runs.map((run) => run.trigger.headers["x-delivery-id"]).sort()).toEqual(ids);
      for (const from of [a, b]) await expectActivity(from, t.id, requestIds, runs);
    }, 120_000);
  });

  describe("a configuration change through A is in force on B within one second", () => {
    const measured: Record<"create" | "rotate" | "delete", number[]> = { create: [], rotate: [], delete: [] };
    afterAll(() => {
      const show = (ms: number[]) => ms.map((m) => m.toFixed(1)).join(", ");
      console.log(
        `propagation A → B (ms, until B's answer arrived): create [${show(measured.create)}], rotate [${show(measured.rotate)}], delete [${show(measured.delete)}]`,
      );
    });

    /** Milliseconds from `t0` until `inForce()` first holds on B, probing every ~10 ms; gives up after 10 s. */
    async function propagation(t0: number, inForce: () => Promise<boolean>): Promise<number> {
      for (;;) {
        if (await inForce()) return performance.now() - t0;
        if (performance.now() - t0 > 10_000) throw new Error("the change never reached B (10 s)");
        await Bun.sleep(10);
      }
    }

    for (const round of [1, 2, 3]) {
      test(`round ${round}: create → B accepts; rotate (auth.type change) → B rejects the old signature and accepts the new; delete → B answers 404`, async () => {
        const body = JSON.stringify({ round });

        // Create on A.
        const created = await a.api("POST", "/api/triggers", { name: `propagate-${round}`, auth: { type: "hmac-sha256" } });
        let t0 = performance.now();
        expect(created.status).toBe(201);
        const t = created.body;
        const oldSecret = await revealSecret(a, t.id);
        const oldSignature = sign("sha256", oldSecret, body);
        const create = await propagation(t0, async () => (await b.webhook(t.token, body, oldSignature)).status === 200);

        // Rotate on A: a new auth.type generates a new secret; the old one stops working.
        const rotated = await a.api("PATCH", `/api/triggers/${t.id}`, { auth: { type: "hmac-sha512" } });
        t0 = performance.now();
        expect(rotated.status).toBe(200);
        expect(rotated.body.auth.type).toBe("hmac-sha512");
        const newSecret = await revealSecret(a, t.id);
        expect(newSecret).not.toBe(oldSecret);
        const newSignature = sign("sha512", newSecret, body);
        const rotate = await propagation(t0, async () => {
          const [old, fresh] = await Promise.all([b.webhook(t.token, body, oldSignature), b.webhook(t.token, body, newSignature)]);
          return old.status === 401 && fresh.status === 200;
        });
        // Once in force it stays in force: no flapping back to the old secret.
        expect((await b.webhook(t.token, body, oldSignature)).status).toBe(401);
        expect((await b.webhook(t.token, body, newSignature)).status).toBe(200);
        expect(await revealSecret(b, t.id)).toBe(newSecret);

        // Delete on A.
        const deleted = await a.api("DELETE", `/api/triggers/${t.id}`);
        t0 = performance.now();
        expect(deleted.status).toBe(204);
        const gone = await propagation(t0, async () => (await b.webhook(t.token, body, newSignature)).status === 404);
        expect((await a.webhook(t.token, body, newSignature)).status).toBe(404);
        expect((await b.api("GET", `/api/triggers/${t.id}`)).status).toBe(404);

        measured.create.push(create);
        measured.rotate.push(rotate);
        measured.delete.push(gone);
        expect(create).toBeLessThan(1000);
        expect(rotate).toBeLessThan(1000);
        expect(gone).toBeLessThan(1000);
      }, 60_000);
    }
  });

  test("workflow response mode: 20 concurrent requests split across A and B are each answered by the instance asked, with the workflow's response", async () => {
    // The command prints its parent's pid: the instance that executed the run.
    const t = await createTrigger(a, {
      name: "workflow-answer",
      response: { mode: "workflow", timeoutMs: 30_000 },
      workflow: {
        kind: "command",
        argv: ["sh", "-c", 'read -r t; printf \'{"pid":%s,"run":"%s","trigger":%s}\' "$PPID" "$INLET_RUN_ID" "$t"'],
        timeoutMs: 30_000,
      },
    });
    await waitFor("B knows the trigger", async () => (await b.api("GET", `/api/triggers/${t.id}`)).status === 200);
    const asked = Array.from({ length: 20 }, (_, n) => (n % 2 === 0 ? a : b));
    const responses = await Promise.all(asked.map((instance, n) => instance.webhook(t.token, JSON.stringify({ n }))));
    const answers = await Promise.all(
      responses.map(async (response, n) => {
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(response.headers.get("x-service-deduplicated")).toBeNull();
        const requestId = response.headers.get("x-request-id")!;
        expect(requestId).toMatch(UUID);
        const answer = await response.json();
        expect(answer.pid).toBe(asked[n].pid);
        expect(answer.trigger.body).toEqual({ n });
        expect(answer.trigger.requestId).toBe(requestId);
        return { requestId, runId: answer.run as string };
      }),
    );
    const runs = (await b.api("GET", `/api/runs?triggerId=${t.id}&limit=500`)).body as any[];
    expect(runs).toHaveLength(20);
    expect(runs.every((run) => run.status === "succeeded" && run.attempts === 1)).toBe(true);
    expect(new Set(runs.map((run) => `${run.id} ${run.requestId}`))).toEqual(new Set(answers.map((x) => `${x.runId} ${x.requestId}`)));
  }, 120_000);
});

describe.skipIf(!postgresAvailable())("a run whose instance died", () => {
  test("is taken over by the other instance once its lease lapses, and executed exactly once more", async () => {
    const LEASE_SECONDS = 3;
    const url = await newDatabase();
    const received: Array<{ runId: string | null; at: number }> = [];
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    // The first delivery hangs (its instance is killed while it waits); later ones succeed.
    const target = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      async fetch(request) {
        received.push({ runId: request.headers.get("idempotency-key"), at: Date.now() });
        await request.arrayBuffer();
        if (received.length === 1) await blocked;
        return Response.json({ delivered: true });
      },
    });
    const db = new SQL(url, { max: 1 });
    const mine: Instance[] = [];
    try {
      const lease = ["--run-lease-seconds", String(LEASE_SECONDS)];
      const a = await startInstance("lease-a", { databaseUrl: url, secretKey: SECRET_KEY, adminToken: ADMIN, args: lease });
      mine.push(a);
      const b = await startInstance("lease-b", { databaseUrl: url, secretKey: SECRET_KEY, adminToken: ADMIN, args: lease });
      mine.push(b);
      const t = await createTrigger(a, {
        name: "takeover",
        workflow: { kind: "http", url: `http://127.0.0.1:${target.port}/hook`, timeoutMs: 120_000, retry: { maxAttempts: 1 } },
      });
      const accepted = await a.webhook(t.token, JSON.stringify({ deploy: "v2" }));
      expect(accepted.status).toBe(200);
      const requestId = accepted.headers.get("x-request-id");

      await waitFor("the first delivery reaches the target", () => received.length === 1, 30_000);
      const runId = received[0].runId!;
      // A took the run at commit, unless B's poll claimed it first: whichever holds it dies.
      const [held] = await db`SELECT status, lease_owner, lease_until_ms FROM runs WHERE id = ${runId}`;
      expect(held.status).toBe("running");
      const ownerPid = Number(/:(\d+):[^:]+$/.exec(held.lease_owner)?.[1]);
      const holder = [a, b].find((i) => i.pid === ownerPid);
      if (!holder) throw new Error(`lease owner ${held.lease_owner} is neither instance (pids ${a.pid}, ${b.pid})`);
      const survivor = holder === a ? b : a;
      const leaseUntil = Number(held.lease_until_ms);
      await holder.kill("SIGKILL");

      const run = await waitFor(
        "the survivor finishes the run",
        async () => {
          const r = await survivor.api("GET", `/api/runs/${runId}`);
          return r.status === 200 && r.body.status !== "running" && r.body.status !== "queued" ? r.body : null;
        },
        60_000,
        100,
      );
      expect(run).toMatchObject({ id: runId, requestId, status: "succeeded", error: null });
      expect(run.attempts).toBeGreaterThanOrEqual(1);
      expect(run.result.status).toBe(200);
      expect(run.finishedAt).not.toBeNull();
      // Executed once more (at-least-once), with the same Idempotency-Key, and not before the dead holder's lease ran out.
      expect(received).toHaveLength(2);
      expect(received[1].runId).toBe(runId);
      expect(received[1].at).toBeGreaterThanOrEqual(leaseUntil);
      // A finished run is never claimed again: after more than a poll interval and a lease, still two deliveries.
      await Bun.sleep((LEASE_SECONDS + 1) * 1000);
      expect(received).toHaveLength(2);
      const [after] = await db`SELECT status, lease_owner FROM runs WHERE id = ${runId}`;
      expect(after).toEqual({ status: "succeeded", lease_owner: null });
      const activity = (await survivor.api("GET", `/api/triggers/${t.id}/activity`)).body as any[];
      expect(activity.map((row) => [row.outcome, row.runId])).toEqual([["run", runId]]);
      console.log(
        `takeover: ${holder.name} held the run and was killed; ${survivor.name} redelivered it ${received[1].at - leaseUntil} ms after the lease lapsed`,
      );
    } finally {
      unblock();
      await Promise.all(mine.map((i) => i.kill()));
      await db.close();
      target.stop(true);
    }
  }, 180_000);
});

describe.skipIf(!postgresAvailable())("two instances starting together on a brand-new database", () => {
  test("both start, the migrations are applied once, and only one prints the generated admin token", async () => {
    const url = await newDatabase();
    const db = new SQL(url, { max: 1 });
    const starts = ["new-a", "new-b"].map((name) => startInstance(name, { databaseUrl: url, secretKey: SECRET_KEY, adminToken: null }));
    try {
      const started = await Promise.all(starts);
      const migrations = await db`SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version`;
      expect([...migrations]).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));

      const printed = started.map((i) => i.printedToken).filter((token): token is string => token !== null);
      expect(printed).toHaveLength(1);
      expect(printed[0]).toMatch(/^inlet_[A-Za-z0-9_-]{43}$/);
      for (const instance of started) {
        expect((await instance.api("GET", "/api/triggers", undefined, printed[0])).status).toBe(200);
        expect((await instance.api("GET", "/api/triggers", undefined, "inlet_not-the-token-0000000000000000")).status).toBe(401);
      }
      const [stored] = await db`SELECT count(*)::int AS n FROM meta WHERE key = 'admin_token_sha256'`;
      expect(stored.n).toBe(1);
    } finally {
      const settled = await Promise.allSettled(starts);
      await Promise.all(settled.map((s) => (s.status === "fulfilled" ? s.value.kill() : undefined)));
      await db.close();
    }
  }, 120_000);
});
