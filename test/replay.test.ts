import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cli } from "./support/process.ts";
import { eventually, startTestServer, type TestServer } from "./support/server.ts";

// Replay (CONTRACT §6.1) through real HTTP: a real server, a real downstream target.
let status = 500;
const received: Array<{ path: string; body: any }> = [];
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    received.push({ path: new URL(request.url).pathname, body: await request.json() });
    return new Response("{}", { status });
  },
});
const targetUrl = (path = "/hook") => `http://127.0.0.1:${target.port}${path}`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--run-concurrency", "4"]);
});
afterAll(async () => {
  await server.close();
  target.stop(true);
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json", ...headers } });
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(server.url + path, {
    method,
    headers: { Authorization: "Bearer test-admin-token-0123456789abcdef", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
const runsOf = async (triggerId: string) => (await api("GET", `/api/runs?triggerId=${triggerId}&include=trigger`)).body as any[];
const settled = (runId: string) => eventually(async () => {
  const run = (await api("GET", `/api/runs/${runId}`)).body;
  return run.status === "succeeded" || run.status === "failed" ? run : null;
});

describe("replaying one run", () => {
  test("a failed run again: same $trigger and requestId, the trigger's current workflow and redaction, replayOf set, one Activity row", async () => {
    status = 500;
    const t = await server.createTrigger({ name: "replay-run", workflow: { kind: "http", url: targetUrl("/old"), retry: { maxAttempts: 1 } } });
    const sent = await post(t.url, { order: 1, email: "a@b.c" });
    const requestId = sent.headers.get("x-request-id");
    const [original] = await runsOf(t.id);
    expect((await settled(original.id)).status).toBe("failed");

    // Fix the target, point the workflow elsewhere and add a redaction: the replay uses what is current.
    status = 200;
    await api("PATCH", `/api/triggers/${t.id}`, { workflow: { kind: "http", url: targetUrl("/new"), retry: { maxAttempts: 1 } }, redaction: { enabled: true, patterns: ["^email$"] } });
    const replayed = await api("POST", `/api/runs/${original.id}/replay`);
    expect(replayed.status).toBe(201);
    expect(replayed.body).toMatchObject({ triggerId: t.id, requestId, replayOf: original.id });
    expect(replayed.body.id).not.toBe(original.id);
    expect(replayed.body.trigger.body).toEqual({ order: 1, email: "[REDACTED]" });
    expect(replayed.body.trigger.requestId).toBe(requestId);
    expect((await settled(replayed.body.id)).status).toBe("succeeded");
    expect(received.filter((r) => r.path === "/new").map((r) => r.body.body)).toEqual([{ order: 1, email: "[REDACTED]" }]);
    expect((await api("GET", `/api/runs/${original.id}`)).body.replayOf).toBeNull();

    const rows = await server.activity(t.id);
    expect(rows.map((r) => [r.outcome, r.detail])).toEqual([
      ["run", `replay of ${original.id}`],
      ["run", null],
    ]);
    expect(rows[0].requestId).toBe(requestId);
  });

  test("authentication and deduplication are not applied again", async () => {
    status = 200;
    const t = await server.createTrigger({ name: "replay-dedup", auth: { type: "bearer" }, dedup: { strategy: "payload-hash" } });
    await post(t.url, { n: 1 }, { Authorization: `Bearer ${t.secret}` });
    expect((await post(t.url, { n: 1 }, { Authorization: `Bearer ${t.secret}` })).status).toBe(200);
    const [run] = await runsOf(t.id);
    expect((await runsOf(t.id)).length).toBe(1);
    // The secret changes (auth.type change rotates it): the stored request still replays.
    await api("PATCH", `/api/triggers/${t.id}`, { auth: { type: "header" } });
    const replayed = await api("POST", `/api/runs/${run.id}/replay`);
    expect(replayed.status).toBe(201);
    expect((await runsOf(t.id)).length).toBe(2);
  });

  test("unknown runs are 404", async () => {
    expect(await api("POST", "/api/runs/nope/replay")).toEqual({ status: 404, body: { error: "run not found" } });
  });
});

describe("replaying a filtered request", () => {
  test("the current filter decides (or is skipped); auth failures and rejections are never replayable", async () => {
    status = 200;
    const t = await server.createTrigger({ name: "replay-filtered", auth: { type: "bearer" }, filter: { enabled: true, mode: "include", expression: '$.type == "paid"' } });
    await post(t.url, { type: "refund", card: "4242" }, { Authorization: `Bearer ${t.secret}` });
    await post(t.url, { type: "refund", n: 2 }, { Authorization: `Bearer ${t.secret}` });
    await post(t.url, { type: "paid" }, { Authorization: "Bearer wrong" });
    const rows = await server.activity(t.id);
    const [second, first] = rows.filter((r) => r.outcome === "filtered");
    const denied = rows.find((r) => r.outcome === "auth_failed");

    expect(await api("POST", `/api/triggers/${t.id}/activity/${first.id}/replay`, { filter: "apply" })).toEqual({ status: 200, body: { outcome: "filtered" } });
    // A still-filtered replay leaves its own Filtered row, naming what it replays.
    expect((await server.activity(t.id))[0]).toMatchObject({ outcome: "filtered", detail: `replay of ${first.id}: filter (include) did not match`, requestId: first.requestId });

    // The filter was wrong: fixed, the same request now becomes a run, with the current redaction.
    await api("PATCH", `/api/triggers/${t.id}`, { filter: { expression: '$.type == "paid" || $.type == "refund"' }, redaction: { enabled: true, patterns: ["card"] } });
    const run = await api("POST", `/api/triggers/${t.id}/activity/${first.id}/replay`);
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ replayOf: first.id, requestId: first.requestId, trigger: { body: { type: "refund", card: "[REDACTED]" } } });

    await api("PATCH", `/api/triggers/${t.id}`, { filter: { expression: '$.type == "never"' } });
    const skipped = await api("POST", `/api/triggers/${t.id}/activity/${second.id}/replay`, { filter: "skip" });
    expect(skipped.status).toBe(201);
    expect(skipped.body.trigger.body).toEqual({ type: "refund", n: 2 });

    const refused = await api("POST", `/api/triggers/${t.id}/activity/${denied.id}/replay`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain("only Filtered requests can be replayed");
    expect((await api("POST", `/api/triggers/${t.id}/activity/nope/replay`)).status).toBe(404);
    expect((await api("POST", `/api/triggers/nope/activity/${first.id}/replay`)).status).toBe(404);
    const bad = await api("POST", `/api/triggers/${t.id}/activity/${first.id}/replay`, { filter: "maybe" });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe("/filter");
  });
});

describe("bulk replay", () => {
  test("dry run counts; a replay takes the oldest first up to the limit, by status and time", async () => {
    status = 500;
    const t = await server.createTrigger({ name: "replay-bulk", workflow: { kind: "http", url: targetUrl("/bulk"), retry: { maxAttempts: 1 } } });
    // A few ms apart: the time window below is drawn between their creation times (ms resolution).
    for (let i = 0; i < 5; i++) {
      await post(t.url, { i });
      await Bun.sleep(3);
    }
    await eventually(async () => (await runsOf(t.id)).every((r) => r.status === "failed"));
    const failed = (await runsOf(t.id)).reverse();

    expect(await api("POST", `/api/triggers/${t.id}/replay`, { status: ["failed"], dryRun: true })).toEqual({ status: 200, body: { matched: 5, replayed: 0, runIds: [] } });
    expect((await api("POST", `/api/triggers/${t.id}/replay`, { status: ["succeeded"], dryRun: true })).body.matched).toBe(0);
    const window = { since: failed[1].createdAt, until: failed[3].createdAt, dryRun: true };
    expect((await api("POST", `/api/triggers/${t.id}/replay`, window)).body.matched).toBe(3);

    status = 200;
    const replay = await api("POST", `/api/triggers/${t.id}/replay`, { status: ["failed"], limit: 2 });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ matched: 5, replayed: 2 });
    const replayedOf = await Promise.all(replay.body.runIds.map(async (id: string) => (await settled(id)).replayOf));
    expect(replayedOf).toEqual([failed[0].id, failed[1].id]);
    // Replays are never selected again by a later bulk replay of the same window's status.
    expect((await api("POST", `/api/triggers/${t.id}/replay`, { status: ["failed"], dryRun: true })).body.matched).toBe(5);
  });

  test("filtered requests in bulk, through the current filter", async () => {
    const t = await server.createTrigger({ name: "replay-bulk-filtered", filter: { enabled: true, mode: "exclude", expression: "$.test == true" } });
    for (let i = 0; i < 3; i++) await post(t.url, { test: true, i });
    await api("PATCH", `/api/triggers/${t.id}`, { filter: { enabled: false } });
    const result = await api("POST", `/api/triggers/${t.id}/replay`, { source: "filtered" });
    expect(result.body).toMatchObject({ matched: 3, replayed: 3 });
    expect((await runsOf(t.id)).map((r) => r.trigger.body.i).sort()).toEqual([0, 1, 2]);
  });

  test("bad input gets 400 with details; unknown triggers 404", async () => {
    const t = await server.createTrigger({ name: "replay-bad" });
    const bad = await api("POST", `/api/triggers/${t.id}/replay`, { source: "everything", limit: 0, since: "yesterday" });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["/limit", "/since", "/source"]);
    const mixed = await api("POST", `/api/triggers/${t.id}/replay`, { source: "filtered", status: ["failed"] });
    expect(mixed.body.details).toEqual([{ path: "/status", message: 'filters runs by their status: leave it out with source "filtered"' }]);
    expect((await api("POST", "/api/triggers/nope/replay", {})).status).toBe(404);
  });
});

describe("from the command line", () => {
  test("inlet runs replay and inlet triggers replay --dry-run, on a running server's data dir", async () => {
    status = 500;
    const t = await server.createTrigger({ name: "replay-cli", workflow: { kind: "http", url: targetUrl("/cli"), retry: { maxAttempts: 1 } } });
    await post(t.url, { cli: 1 });
    await post(t.url, { cli: 2 });
    await eventually(async () => (await runsOf(t.id)).every((r) => r.status === "failed"));
    const [, oldest] = await runsOf(t.id);
    const dataDir = ["--data-dir", server.dataDir];

    const dry = await cli(["triggers", "replay", t.id, "--status", "failed", "--dry-run", ...dataDir]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ matched: 2, replayed: 0, runIds: [] });

    status = 200;
    const one = await cli(["runs", "replay", oldest.id, ...dataDir]);
    expect(one.code).toBe(0);
    const run = JSON.parse(one.stdout);
    expect(run).toMatchObject({ replayOf: oldest.id, status: "queued", requestId: oldest.requestId });
    // The server serving this data dir picks the queued run up.
    expect((await settled(run.id)).status).toBe("succeeded");

    const bad = await cli(["triggers", "replay", t.id, "--source", "everything", ...dataDir]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("--source");
    const unknown = await cli(["runs", "replay", "nope", ...dataDir]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("run not found");
  });
});
