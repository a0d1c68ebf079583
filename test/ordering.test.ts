import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropDatabase, newSecretKey, startInstance, stopAll, type Instance } from "./support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "./support/postgres.ts";
import { BUN, spawnServer } from "./support/process.ts";
import { startTestServer, waitFor } from "./support/server.ts";

/**
 * Ordering per key (docs/api.md#ordering-per-key), observed where it matters: at a receiver that records when
 * each delivery starts and ends. Runs of one key never overlap and arrive in acceptance order;
 * different keys overlap.
 */

interface Arrival {
  key: string | null;
  n: number;
  start: number;
  end: number;
  status: number;
}

/** A receiver that holds each delivery `holdMs`, and can fail the first attempts of chosen events. */
function receiver(holdMs: number) {
  const arrivals: Arrival[] = [];
  const failFirst = new Map<number, number>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const $trigger = await request.json();
      const start = performance.now();
      await Bun.sleep(holdMs);
      const n = $trigger.body.n as number;
      const left = failFirst.get(n) ?? 0;
      const status = left > 0 ? 503 : 200;
      if (left > 0) failFirst.set(n, left - 1);
      arrivals.push({ key: $trigger.body.customer ?? null, n, start, end: performance.now(), status });
      return new Response("{}", { status, headers: status === 503 ? { "Retry-After": "0" } : {} });
    },
  });
  return { arrivals, failFirst, url: `http://127.0.0.1:${server.port}/hook`, stop: () => server.stop(true) };
}

/** No two deliveries of one key overlap, and each key's events arrive in the order sent (first successful attempts). */
function expectOrdered(arrivals: Arrival[], key: string, expected: number[]) {
  const mine = arrivals.filter((a) => a.key === key).sort((x, y) => x.start - y.start);
  for (let i = 1; i < mine.length; i++) expect(mine[i].start).toBeGreaterThanOrEqual(mine[i - 1].end - 1);
  const delivered = mine.filter((a) => a.status === 200).map((a) => a.n);
  expect([...new Set(delivered)]).toEqual(expected);
}

const overlaps = (arrivals: Arrival[], a: string, b: string) =>
  arrivals.some((x) => x.key === a && arrivals.some((y) => y.key === b && x.start < y.end && y.start < x.end));

const post = (url: string, body: unknown) => fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("one instance", () => {
  test("equal keys one at a time in acceptance order, across retries; other keys and keyless runs in parallel", async () => {
    const target = receiver(60);
    cleanups.push(target.stop);
    const server = await startTestServer({}, ["--run-concurrency", "4"]);
    cleanups.push(() => server.close());
    const t = await server.createTrigger({
      name: "ordered",
      workflow: { kind: "http", url: target.url, retry: { maxAttempts: 4 }, orderingKey: "$.customer" },
    });
    // Event 1 fails twice before it succeeds: event 2 of its key waits through the retries.
    target.failFirst.set(1, 2);
    for (let n = 1; n <= 4; n++) {
      await post(t.url, { customer: "A", n });
      await post(t.url, { customer: "B", n: 10 + n });
    }
    await post(t.url, { n: 99 });
    await waitFor("every event delivered", () => target.arrivals.filter((a) => a.status === 200).length === 9, 20_000);

    expectOrdered(target.arrivals, "A", [1, 2, 3, 4]);
    expectOrdered(target.arrivals, "B", [11, 12, 13, 14]);
    expect(target.arrivals.filter((a) => a.n === 1).map((a) => a.status)).toEqual([503, 503, 200]);
    expect(overlaps(target.arrivals, "A", "B")).toBe(true);

    const runs = (await server.api("GET", `/api/runs?triggerId=${t.id}&limit=20`)).body as any[];
    expect(runs.filter((r) => r.orderingKey === '"A"')).toHaveLength(4);
    expect(runs.find((r) => r.orderingKey === null)).toBeDefined();
  });

  test("a key stuck behind a run that does not finish shows in /metrics", async () => {
    const target = receiver(1500);
    cleanups.push(target.stop);
    const server = await startTestServer({}, ["--run-concurrency", "4"]);
    cleanups.push(() => server.close());
    const t = await server.createTrigger({ name: "stuck", workflow: { kind: "http", url: target.url, orderingKey: "$.customer" } });
    for (let n = 1; n <= 3; n++) await post(t.url, { customer: "S", n });
    const line = `inlet_runs_waiting_on_key{trigger="${t.id}"} 2`;
    await waitFor("the waiting runs in /metrics", async () => (await (await fetch(`${server.url}/metrics`)).text()).includes(line), 5000);
  });

  test("an ordering key that is not a JSONPath query is refused at save", async () => {
    const server = await startTestServer();
    cleanups.push(() => server.close());
    const bad = await server.api("POST", "/api/triggers", {
      name: "bad-key",
      workflow: { kind: "http", url: "http://127.0.0.1:9/x", orderingKey: "customer.id" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe("/workflow/orderingKey");
  });

  test("after a SIGKILL with queued runs, the order holds from where it stopped", async () => {
    const target = receiver(400);
    cleanups.push(target.stop);
    const dataDir = mkdtempSync(join(tmpdir(), "inlet-test-ordering-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { INLET_ADMIN_TOKEN: "ordering-admin-token-0123456789" };
    const args = ["--data-dir", dataDir, "--run-concurrency", "4", "--log-requests", "false"];
    const first = await spawnServer([BUN, "run", "src/main.ts"], args, { env });
    const admin = { Authorization: `Bearer ${env.INLET_ADMIN_TOKEN}`, "Content-Type": "application/json" };
    const created = await (
      await fetch(`${first.url}/api/triggers`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ name: "ordered-kill", workflow: { kind: "http", url: target.url, orderingKey: "$.customer" } }),
      })
    ).json();
    const token = created.url.split("/webhooks/")[1];
    for (let n = 1; n <= 4; n++) expect((await post(`${first.url}/webhooks/${token}`, { customer: "K", n })).status).toBe(200);
    // Killed while event 1 is being delivered: 2, 3 and 4 are still queued behind it.
    await Bun.sleep(200);
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    // The receiver still finishes the delivery the killed process had started (its handler runs
    // on): the restart must resume the order from there, not race a request nobody is waiting for.
    await waitFor("the killed delivery finished at the receiver", () => target.arrivals.some((a) => a.n === 1), 5000);

    const second = await spawnServer([BUN, "run", "src/main.ts"], args, { env });
    cleanups.push(async () => {
      second.proc.kill("SIGKILL");
      await second.proc.exited;
    });
    await waitFor("every event delivered after the restart", () => new Set(target.arrivals.filter((a) => a.status === 200).map((a) => a.n)).size === 4, 20_000);
    // Event 1 may be delivered twice (at-least-once), but never after 2, and no two overlap.
    expectOrdered(target.arrivals, "K", [1, 2, 3, 4]);
  });
});

describe.skipIf(!postgresAvailable())("two instances on one PostgreSQL database", () => {
  test("one key's runs never overlap and keep their order, whichever instance accepted or runs them", async () => {
    const target = receiver(50);
    cleanups.push(target.stop);
    const url = await freshDatabase((await sharedPostgres())!, "inlet_ordering");
    cleanups.push(() => dropDatabase(url).catch(() => {}));
    cleanups.push(stopAll);
    const options = { databaseUrl: url, secretKey: newSecretKey(), adminToken: "ordering-admin-token-0123456789", args: ["--run-concurrency", "4"] };
    const a: Instance = await startInstance("ord-a", options);
    const b: Instance = await startInstance("ord-b", options);
    const created = await a.api("POST", "/api/triggers", { name: "ordered-pg", workflow: { kind: "http", url: target.url, orderingKey: "$.customer" } });
    const token = created.body.url.split("/webhooks/")[1];
    await waitFor("B knows the trigger", async () => (await b.webhook(token, JSON.stringify({ warmup: true }))).status === 200, 10_000);
    for (let n = 1; n <= 6; n++) {
      expect((await (n % 2 ? a : b).webhook(token, JSON.stringify({ customer: "P", n }))).status).toBe(200);
      expect((await (n % 2 ? b : a).webhook(token, JSON.stringify({ customer: "Q", n: 10 + n }))).status).toBe(200);
    }
    await waitFor("every event delivered", () => target.arrivals.filter((x) => x.status === 200 && x.key !== null).length === 12, 30_000);
    expectOrdered(target.arrivals, "P", [1, 2, 3, 4, 5, 6]);
    expectOrdered(target.arrivals, "Q", [11, 12, 13, 14, 15, 16]);
  }, 120_000);
});

/**
 * A receiver that holds each delivery until the test releases it by its body's `label`, and can
 * refuse a label's first attempt (503 with a Retry-After): what is in flight is observed, not timed.
 */
function gatedReceiver() {
  const seen: string[] = [];
  const gates = new Map<string, () => void>();
  const refuseOnce = new Map<string, string>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const { label } = (await request.json()).body as { label: string };
      seen.push(label);
      const retryAfter = refuseOnce.get(label);
      if (retryAfter !== undefined) {
        refuseOnce.delete(label);
        return new Response("{}", { status: 503, headers: { "Retry-After": retryAfter } });
      }
      await new Promise<void>((resolve) => gates.set(label, resolve));
      return new Response("{}");
    },
  });
  return {
    seen,
    refuseOnce,
    url: `http://127.0.0.1:${server.port}/hook`,
    arrived: (label: string, times = 1) => waitFor(`${label} at the receiver (${times})`, () => seen.filter((l) => l === label).length >= times),
    release: (...labels: string[]) => labels.forEach((label) => gates.get(label)?.()),
    stop: () => server.stop(true),
  };
}

describe("one instance, observed with gates", () => {
  const target = gatedReceiver();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // Slots to spare: a run that waits, waits for its key, not for a slot.
    server = await startTestServer({}, ["--run-concurrency", "8"]);
  });
  afterAll(async () => {
    await server.close();
    target.stop();
  });
  // Its one destination may run as many at once as the server has slots: a run that waits, waits for its key.
  const orderedTrigger = (name: string, extra: Record<string, unknown> = {}, orderingKey = "$.customer") =>
    server.createTrigger({
      name,
      ...extra,
      destinations: [{ name: "default", workflow: { kind: "http", url: target.url, retry: { maxAttempts: 3 }, orderingKey }, concurrency: 8 }],
    });
  /** The live run (not a replay) whose body carries `label`. */
  const runOf = async (triggerId: string, label: string) =>
    ((await server.api("GET", `/api/runs?triggerId=${triggerId}&include=trigger`)).body as any[]).find((r) => r.trigger.body.label === label && !r.replayOf);
  const statusesOf = (triggerId: string, labels: string[]) => Promise.all(labels.map(async (label) => (await runOf(triggerId, label)).status));

  test("a run waits while an earlier run of its key runs or is retried, then they go in acceptance order; other keys and runs with no key go on", async () => {
    const t = await orderedTrigger("gated-order");
    target.refuseOnce.set("A1", "1");
    for (const [customer, label] of [
      ["A", "A1"],
      ["A", "A2"],
      ["A", "A3"],
      ["B", "B1"],
      [undefined, "N1"],
      [undefined, "N2"],
    ]) {
      expect((await post(t.url, { customer, label })).status).toBe(200);
    }
    // B1, and N1 with N2 (no node selected: not ordered, not even with each other), are in flight together.
    for (const label of ["A1", "B1", "N1", "N2"]) await target.arrived(label);
    expect(await statusesOf(t.id, ["A1", "A2", "A3"])).toEqual(["running", "queued", "queued"]);
    // A1 is retried: its key stays held through the retry.
    await target.arrived("A1", 2);
    expect(await statusesOf(t.id, ["A1", "A2", "A3"])).toEqual(["running", "queued", "queued"]);
    target.release("A1");
    await target.arrived("A2");
    expect(await statusesOf(t.id, ["A1", "A2", "A3"])).toEqual(["succeeded", "running", "queued"]);
    target.release("A2");
    await target.arrived("A3");
    expect(target.seen.filter((l) => l.startsWith("A"))).toEqual(["A1", "A1", "A2", "A3"]);
    target.release("A3", "B1", "N1", "N2");
    await waitFor("every run succeeded", async () => (await statusesOf(t.id, ["A3", "B1", "N1", "N2"])).every((s) => s === "succeeded"));
    expect((await runOf(t.id, "A1")).attempts).toBe(2);
  });

  test("the key is read from the body after redaction", async () => {
    const t = await orderedTrigger("gated-redacted", { redaction: { enabled: true, patterns: ["^email$"] } }, "$.email");
    for (const body of [{ email: "a@example.com", label: "E1" }, { email: "b@example.com", label: "E2" }, { label: "E3" }]) await post(t.url, body);
    // Both addresses read "[REDACTED]": one key. E3 has none: not ordered.
    for (const label of ["E1", "E3"]) await target.arrived(label);
    expect(await statusesOf(t.id, ["E1", "E2"])).toEqual(["running", "queued"]);
    target.release("E1", "E3");
    await target.arrived("E2");
    target.release("E2");
  });

  test("workflow response mode: a caller's run waits for its key too", async () => {
    const t = await orderedTrigger("gated-workflow-mode", { response: { mode: "workflow", timeoutMs: 10_000 } });
    const first = post(t.url, { customer: "W", label: "W1" });
    await target.arrived("W1");
    const second = post(t.url, { customer: "W", label: "W2" });
    // A caller without a key is answered meanwhile: the queue is not stuck, W2 waits for W1.
    const unordered = post(t.url, { label: "W0" });
    await target.arrived("W0");
    // W2's caller is not awaited: its run exists once it is committed.
    await waitFor("W2's run", async () => (await statusesOf(t.id, ["W2"]))[0] !== undefined);
    expect(await statusesOf(t.id, ["W1", "W2"])).toEqual(["running", "queued"]);
    target.release("W0");
    expect((await unordered).status).toBe(200);
    target.release("W1");
    expect((await first).status).toBe(200);
    await target.arrived("W2");
    target.release("W2");
    expect((await second).status).toBe(200);
  });

  test("a replay takes its turn on its key behind the live runs accepted before it", async () => {
    const t = await orderedTrigger("gated-replay");
    await post(t.url, { customer: "R", label: "R1" });
    await target.arrived("R1");
    target.release("R1");
    const original = await waitFor("R1 succeeded", async () => ((await runOf(t.id, "R1")).status === "succeeded" ? runOf(t.id, "R1") : null));
    await post(t.url, { customer: "R", label: "R2" });
    await target.arrived("R2");
    const replay = await server.api("POST", `/api/runs/${original.id}/replay`);
    expect(replay.status).toBe(201);
    await post(t.url, { label: "R0" });
    await target.arrived("R0");
    expect((await server.api("GET", `/api/runs/${replay.body.id}`)).body.status).toBe("queued");
    target.release("R2", "R0");
    await target.arrived("R1", 2);
    target.release("R1");
    await waitFor("the replay succeeded", async () => (await server.api("GET", `/api/runs/${replay.body.id}`)).body.status === "succeeded");
  });
});
