import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, startTestServer, type TestServer } from "./support/server.ts";

/**
 * Destinations end to end (README "Destinations"): one accepted request fans out to several
 * destinations, each with its own queue, transform, limits, breaker and pause — and one whose
 * target hangs never holds up another.
 */

/** A local target per path: what it received, when, and how it answers (set per test). */
const hits: Array<{ path: string; at: number; body: any; headers: Record<string, string> }> = [];
const answers = new Map<string, (request: Request) => Response | Promise<Response>>();
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(request) {
    const path = new URL(request.url).pathname;
    hits.push({ path, at: performance.now(), body: await request.json(), headers: Object.fromEntries(request.headers) });
    return (answers.get(path) ?? (() => new Response("ok")))(request);
  },
});
const url = (path: string) => `http://127.0.0.1:${target.port}${path}`;
const hitsOf = (path: string) => hits.filter((h) => h.path === path);
const dir = mkdtempSync(join(tmpdir(), "inlet-destinations-"));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--run-concurrency", "8"]);
});
afterAll(async () => {
  await server.close();
  target.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const post = (to: string, body: unknown) => fetch(to, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
const runsOf = async (triggerId: string) => (await server.api("GET", `/api/runs?triggerId=${triggerId}&limit=500`)).body as any[];
const statesOf = async (triggerId: string) => (await server.api("GET", `/api/triggers/${triggerId}/destinations`)).body as any[];

test("one request, three destinations: an http service, a Slack-shaped message through a transform, an audit command; one Activity row lists the runs", async () => {
  const audit = join(dir, "audit.jsonl");
  const t = await server.createTrigger({
    name: "fan-out",
    destinations: [
      { name: "ci", workflow: { kind: "http", url: url("/ci") } },
      {
        name: "slack",
        workflow: { kind: "http", url: url("/slack") },
        filter: { expression: '$.ref == "refs/heads/main"' },
        transform: {
          source: "export default ($trigger, ctx) => ({ body: { text: `push to ${$trigger.body.ref} (${ctx.destination})` }, headers: { 'X-Kind': 'slack' } })",
        },
      },
      { name: "audit", workflow: { kind: "command", argv: ["sh", "-c", `cat >> ${audit}; echo >> ${audit}`] } },
    ],
  });
  const answer = await post(t.url, { ref: "refs/heads/main", after: "abc" });
  expect(answer.status).toBe(200);
  const requestId = answer.headers.get("x-request-id");
  await eventually(async () => (await runsOf(t.id)).filter((r) => r.status === "succeeded").length === 3);
  const runs = await runsOf(t.id);
  expect(runs.map((r) => r.destination).sort()).toEqual(["audit", "ci", "slack"]);
  expect(runs.every((r) => r.requestId === requestId)).toBe(true);
  expect(hitsOf("/ci")[0].body.body).toEqual({ ref: "refs/heads/main", after: "abc" });
  expect(hitsOf("/slack")[0].body).toEqual({ text: "push to refs/heads/main (slack)" });
  expect(hitsOf("/slack")[0].headers["x-kind"]).toBe("slack");
  expect(JSON.parse(readFileSync(audit, "utf8").trim()).body).toEqual({ ref: "refs/heads/main", after: "abc" });
  const [row] = await server.activity(t.id);
  expect(row.outcome).toBe("run");
  expect([...row.runIds].sort()).toEqual(runs.map((r) => r.id).sort());
  expect(row.runIds[0]).toBe(row.runId);
  // Another branch: slack's filter leaves it out; the others still get their run.
  await post(t.url, { ref: "refs/heads/dev" });
  await eventually(async () => (await runsOf(t.id)).length === 5);
  expect(
    (await runsOf(t.id))
      .slice(0, 2)
      .map((r) => r.destination)
      .sort(),
  ).toEqual(["audit", "ci"]);
  // A replay of a run goes to that run's destination only.
  const ci = runs.find((r) => r.destination === "ci");
  const replayed = await server.api("POST", `/api/runs/${ci.id}/replay`, {});
  expect(replayed.body).toMatchObject({ destination: "ci", replayOf: ci.id });
  await eventually(async () => hitsOf("/ci").length === 3);
  expect(hitsOf("/slack")).toHaveLength(1);
});

test("while one destination's target hangs with runs piling up, another destination's run starts within a second of its commit", async () => {
  answers.set("/hang", () => new Promise<Response>(() => {}));
  const hung = await server.createTrigger({ name: "hung", workflow: { kind: "http", url: url("/hang"), timeoutMs: 10_000, retry: { maxAttempts: 3 } } });
  const fine = await server.createTrigger({ name: "fine", workflow: { kind: "http", url: url("/fine") } });
  for (let i = 0; i < 30; i++) expect((await post(hung.url, { i })).status).toBe(200);
  await eventually(() => hitsOf("/hang").length === 2);
  const delays: number[] = [];
  for (let i = 0; i < 20; i++) {
    const before = hitsOf("/fine").length;
    const sent = performance.now();
    expect((await post(fine.url, { i })).status).toBe(200);
    await eventually(() => hitsOf("/fine").length > before, 5_000);
    delays.push(hitsOf("/fine").at(-1)!.at - sent);
    await Bun.sleep(100);
  }
  expect(Math.max(...delays)).toBeLessThan(1000);
  // The hung destination holds its two, no more; the rest wait, spending no attempt.
  const states = await statesOf(hung.id);
  expect(states).toEqual([{ name: "default", state: "ok", queued: 28, running: 2, openUntil: null }]);
  answers.delete("/hang");
});

test("the breaker opens after its failures (runs wait, no attempt spent), then tries one run and closes when the target is back", async () => {
  let healthy = false;
  answers.set("/flaky", () => new Response(healthy ? "ok" : "down", { status: healthy ? 200 : 503, headers: { "Retry-After": "0" } }));
  const t = await server.createTrigger({
    name: "breaker",
    destinations: [
      { name: "flaky", workflow: { kind: "http", url: url("/flaky"), retry: { maxAttempts: 1 } }, breaker: { failures: 2, openSeconds: 1 }, concurrency: 1 },
    ],
  });
  for (let i = 0; i < 5; i++) await post(t.url, { i });
  await eventually(async () => (await statesOf(t.id))[0].state === "open");
  const open = (await statesOf(t.id))[0];
  expect(open.openUntil).not.toBeNull();
  const waiting = (await runsOf(t.id)).filter((r) => r.status === "queued");
  expect(waiting.length).toBe(3);
  expect(waiting.every((r) => r.attempts === 0)).toBe(true);
  healthy = true;
  await eventually(async () => (await runsOf(t.id)).filter((r) => r.status === "succeeded").length === 3, 10_000);
  expect((await statesOf(t.id))[0].state).toBe("ok");
  answers.delete("/flaky");
});

test("a run retrying when its destination's breaker opens makes no attempt while it is open: it waits queued, then goes on from its attempts", async () => {
  answers.set("/breaks", () => new Response("down", { status: 503, headers: { "Retry-After": "0" } }));
  const t = await server.createTrigger({
    name: "breaks-mid-retry",
    destinations: [{ name: "d", workflow: { kind: "http", url: url("/breaks"), retry: { maxAttempts: 4 } }, breaker: { failures: 2, openSeconds: 1 } }],
  });
  await post(t.url, { n: 1 });
  await eventually(async () => (await statesOf(t.id))[0].state === "open");
  // Two attempts opened it; the run is back in the queue with them, and no third is made while open.
  await eventually(async () => (await runsOf(t.id))[0].status === "queued");
  expect((await runsOf(t.id))[0].attempts).toBe(2);
  expect(hitsOf("/breaks")).toHaveLength(2);
  const [run] = await eventually(async () => {
    const runs = await runsOf(t.id);
    return runs[0].status === "failed" && runs;
  }, 10_000);
  // Half-open after 1 s: attempt 3 fails and opens it for 2 s; then attempt 4, its last.
  expect(run).toMatchObject({ attempts: 4, error: "the target answered 503 (attempt 4 of 4)" });
  const at = hitsOf("/breaks").map((h) => h.at);
  expect(at).toHaveLength(4);
  expect(at[2] - at[1]).toBeGreaterThanOrEqual(900);
  expect(at[3] - at[2]).toBeGreaterThanOrEqual(1900);
  answers.delete("/breaks");
});

test("a paused destination's runs wait (requests still accepted) until it is resumed, then go in order; a paused responder answers the plain ack", async () => {
  const t = await server.createTrigger({
    name: "pause",
    response: { mode: "workflow", timeoutMs: 3000 },
    destinations: [
      { name: "answer", workflow: { kind: "script", source: "export default () => ({ status: 201, body: 'made' })" }, respond: true },
      { name: "later", workflow: { kind: "http", url: url("/later") } },
    ],
  });
  const made = await post(t.url, { n: 0 });
  expect([made.status, await made.text()]).toEqual([201, "made"]);
  expect((await server.api("POST", `/api/triggers/${t.id}/destinations/later/pause`)).body).toMatchObject({ name: "later", state: "paused" });
  for (let n = 1; n <= 3; n++) expect((await post(t.url, { n })).status).toBe(201);
  await Bun.sleep(500);
  expect(hitsOf("/later").map((h) => h.body.body.n)).toEqual([0]);
  expect((await statesOf(t.id)).find((s) => s.name === "later")).toMatchObject({ state: "paused", queued: 3 });
  await server.api("POST", `/api/triggers/${t.id}/destinations/later/resume`);
  await eventually(() => hitsOf("/later").length === 4);
  expect(hitsOf("/later").map((h) => h.body.body.n)).toEqual([0, 1, 2, 3]);
  // The responder paused: the caller gets the plain acknowledgement, not a 504.
  await server.api("POST", `/api/triggers/${t.id}/destinations/answer/pause`);
  const ack = await post(t.url, { n: 4 });
  expect(ack.status).toBe(200);
  expect(await ack.json()).toEqual({ received: true, request_id: ack.headers.get("x-request-id") });
});

test("a rate limit spreads a destination's starts; a transform that throws fails its run once, one that returns null skips it", async () => {
  const t = await server.createTrigger({
    name: "rate",
    destinations: [
      { name: "slow", workflow: { kind: "http", url: url("/rate") }, rateLimit: { perSecond: 2 }, concurrency: 8 },
      {
        name: "broken",
        workflow: { kind: "http", url: url("/never"), retry: { maxAttempts: 5 } },
        transform: { source: "export default (t) => t.body.missing.field" },
      },
      { name: "skip", workflow: { kind: "http", url: url("/never") }, transform: { source: "export default () => null" } },
    ],
  });
  for (let i = 0; i < 6; i++) await post(t.url, { i });
  await eventually(() => hitsOf("/rate").length === 6, 10_000);
  const starts = hitsOf("/rate").map((h) => h.at);
  // 6 starts at 2 a second: they cannot all fit in the first two seconds.
  expect(starts[5] - starts[0]).toBeGreaterThan(1500);
  await eventually(async () => (await runsOf(t.id)).filter((r) => r.destination !== "slow").every((r) => r.status === "failed" || r.status === "skipped"));
  const others = (await runsOf(t.id)).filter((r) => r.destination !== "slow");
  expect(others.filter((r) => r.destination === "broken").every((r) => r.attempts === 1 && r.error.startsWith("transform: "))).toBe(true);
  expect(others.filter((r) => r.destination === "skip").every((r) => r.status === "skipped" && r.result.skipped === "transform returned null")).toBe(true);
  expect(hitsOf("/never")).toHaveLength(0);
});

test("a destination of kind none with a transform: the transform runs when its run starts (null skips it); without one the run is done at once", async () => {
  const t = await server.createTrigger({
    name: "none-transformed",
    destinations: [
      { name: "probe", workflow: { kind: "none" }, transform: { source: "export default (t) => (t.body.keep ? { body: t.body } : null)" } },
      { name: "plain", workflow: { kind: "none" } },
    ],
  });
  await post(t.url, { keep: true });
  await post(t.url, { keep: false });
  const runs = await eventually(async () => {
    const all = await runsOf(t.id);
    return all.length === 4 && all.every((r) => r.status !== "queued" && r.status !== "running") && all;
  });
  const probe = runs.filter((r: any) => r.destination === "probe").map((r: any) => r.status);
  expect(probe.sort()).toEqual(["skipped", "succeeded"]);
  expect(runs.filter((r: any) => r.destination === "plain").every((r: any) => r.status === "succeeded" && r.attempts === 1)).toBe(true);
});

test("a paused destination of kind none keeps its runs queued too, until it is resumed; skipped runs can be bulk-replayed", async () => {
  const t = await server.createTrigger({
    name: "none-paused",
    destinations: [
      { name: "n", workflow: { kind: "none" } },
      { name: "skipper", workflow: { kind: "none" }, transform: { source: "export default (t) => (t.body.fixed ? { body: t.body } : null)" } },
    ],
  });
  await server.api("POST", `/api/triggers/${t.id}/destinations/n/pause`);
  await post(t.url, { fixed: false });
  await eventually(async () => (await runsOf(t.id)).some((r: any) => r.destination === "skipper" && r.status === "skipped"));
  await Bun.sleep(300);
  expect((await runsOf(t.id)).find((r: any) => r.destination === "n").status).toBe("queued");
  expect((await statesOf(t.id)).find((s: any) => s.name === "n")).toMatchObject({ state: "paused", queued: 1 });
  await server.api("POST", `/api/triggers/${t.id}/destinations/n/resume`);
  await eventually(async () => (await runsOf(t.id)).find((r: any) => r.destination === "n").status === "succeeded");
  // The skipped run, once the transform would deliver it: bulk replay by status.
  const replay = await server.api("POST", `/api/triggers/${t.id}/replay`, { status: ["skipped"], dryRun: true });
  expect(replay.status).toBe(200);
  expect(replay.body.matched).toBe(1);
});
