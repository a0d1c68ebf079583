import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sqlitePathIn } from "../src/store/sqlite/sqlite_store.ts";
import { cli } from "./support/process.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "./support/postgres.ts";
import { eventually, startTestServer, type TestServer } from "./support/server.ts";

// Replay (docs/api.md#replay) through real HTTP: a real server, a real downstream target.
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
const apiOn = async (on: TestServer, method: string, path: string, body?: unknown) => {
  const r = await fetch(on.url + path, {
    method,
    headers: { Authorization: "Bearer test-admin-token-0123456789abcdef", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
const api = (method: string, path: string, body?: unknown) => apiOn(server, method, path, body);
const runsOf = async (triggerId: string) => (await api("GET", `/api/runs?triggerId=${triggerId}&include=trigger`)).body as any[];
const settledOn = (on: TestServer, runId: string) =>
  eventually(async () => {
    const run = (await apiOn(on, "GET", `/api/runs/${runId}`)).body;
    return run.status === "succeeded" || run.status === "failed" ? run : null;
  });
const settled = (runId: string) => settledOn(server, runId);

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
    await api("PATCH", `/api/triggers/${t.id}`, {
      workflow: { kind: "http", url: targetUrl("/new"), retry: { maxAttempts: 1 } },
      redaction: { enabled: true, patterns: ["^email$"] },
    });
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
    const t = await server.createTrigger({
      name: "replay-filtered",
      auth: { type: "bearer" },
      filter: { enabled: true, mode: "include", expression: '$.type == "paid"' },
    });
    await post(t.url, { type: "refund", card: "4242" }, { Authorization: `Bearer ${t.secret}` });
    await post(t.url, { type: "refund", n: 2 }, { Authorization: `Bearer ${t.secret}` });
    await post(t.url, { type: "paid" }, { Authorization: "Bearer wrong" });
    const rows = await server.activity(t.id);
    const [second, first] = rows.filter((r) => r.outcome === "filtered");
    const denied = rows.find((r) => r.outcome === "auth_failed");

    expect(await api("POST", `/api/triggers/${t.id}/activity/${first.id}/replay`, { filter: "apply" })).toEqual({ status: 200, body: { outcome: "filtered" } });
    // A still-filtered replay leaves its own Filtered row, naming what it replays.
    expect((await server.activity(t.id))[0]).toMatchObject({
      outcome: "filtered",
      detail: `replay of ${first.id}: filter (include) did not match`,
      requestId: first.requestId,
    });

    // The filter was wrong: fixed, the same request now becomes a run, with the current redaction.
    await api("PATCH", `/api/triggers/${t.id}`, {
      filter: { expression: '$.type == "paid" || $.type == "refund"' },
      redaction: { enabled: true, patterns: ["card"] },
    });
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
    // Nor is their request kept (docs/api.md#replay): only Filtered rows hold one.
    const invalid = await fetch(t.url, {
      method: "POST",
      body: "{not json",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${t.secret}` },
    });
    expect(invalid.status).toBe(400);
    expect((await server.activity(t.id)).some((r) => r.outcome === "rejected")).toBe(true);
    const db = new Database(sqlitePathIn(server.dataDir), { readonly: true });
    try {
      const kept = db
        .query<{ outcome: string; kept: number }, [string]>(
          "SELECT outcome, request_json IS NOT NULL AS kept FROM activity WHERE trigger_id = ? AND outcome IN ('auth_failed', 'rejected')",
        )
        .all(t.id);
      expect(kept.map((r) => r.outcome).sort()).toEqual(["auth_failed", "rejected"]);
      expect(kept.every((r) => r.kept === 0)).toBe(true);
    } finally {
      db.close();
    }
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
    // Five failures in a row would open the default breaker (and hold the replays): it is off here.
    const t = await server.createTrigger({
      name: "replay-bulk",
      destinations: [{ name: "default", workflow: { kind: "http", url: targetUrl("/bulk"), retry: { maxAttempts: 1 } }, breaker: { failures: 0 } }],
    });
    // A few ms apart: the time window below is drawn between their creation times (ms resolution).
    for (let i = 0; i < 5; i++) {
      await post(t.url, { i });
      await Bun.sleep(3);
    }
    await eventually(async () => (await runsOf(t.id)).every((r) => r.status === "failed"));
    const failed = (await runsOf(t.id)).reverse();

    expect(await api("POST", `/api/triggers/${t.id}/replay`, { status: ["failed"], dryRun: true })).toEqual({
      status: 200,
      body: { matched: 5, replayed: 0, runIds: [] },
    });
    expect((await api("POST", `/api/triggers/${t.id}/replay`, { status: ["succeeded"], dryRun: true })).body.matched).toBe(0);
    const window = { since: failed[1].createdAt, until: failed[3].createdAt, dryRun: true };
    expect((await api("POST", `/api/triggers/${t.id}/replay`, window)).body.matched).toBe(3);

    status = 200;
    const replay = await api("POST", `/api/triggers/${t.id}/replay`, { status: ["failed"], limit: 2 });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ matched: 5, replayed: 2 });
    const replayedOf = await Promise.all(replay.body.runIds.map(async (id: string) => (await settled(id)).replayOf));
    expect(replayedOf).toEqual([failed[0].id, failed[1].id]);
    // A later call takes each request's latest attempt: the two replayed ones succeeded, so three failed requests are left.
    expect((await api("POST", `/api/triggers/${t.id}/replay`, { status: ["failed"], dryRun: true })).body.matched).toBe(3);
    expect((await api("POST", `/api/triggers/${t.id}/replay`, { status: ["succeeded"], dryRun: true })).body.matched).toBe(2);
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
  test("inlet runs replay and inlet triggers replay --dry-run (and --destinations), on a running server's data dir", async () => {
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
    // --destinations: only runs of those destinations (the shorthand's one is `default`).
    const ofDefault = await cli(["triggers", "replay", t.id, "--destinations", "default", "--dry-run", ...dataDir]);
    expect(JSON.parse(ofDefault.stdout)).toMatchObject({ matched: 2, replayed: 0 });
    const ofOther = await cli(["triggers", "replay", t.id, "--destinations", "crm,audit", "--dry-run", ...dataDir]);
    expect(JSON.parse(ofOther.stdout)).toMatchObject({ matched: 0, replayed: 0 });

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

describe("replay: what each promise of docs/api.md#replay pins", () => {
  const bulk = (triggerId: string, body: unknown) => api("POST", `/api/triggers/${triggerId}/replay`, body);

  test("a Filtered request that becomes a run: its kept request (redacted on arrival, no credentials), dedup not applied again, one Activity row `run` naming the row", async () => {
    status = 200;
    const t = await server.createTrigger({
      name: "replay-kept",
      auth: { type: "bearer" },
      dedup: { strategy: "payload-hash" },
      filter: { enabled: true, mode: "exclude", expression: "$.test == true" },
      redaction: { enabled: true, patterns: ["^card$"] },
    });
    const auth = { Authorization: `Bearer ${t.secret}` };
    await post(t.url, { test: true, card: "4242" }, auth);
    const [row] = await server.activity(t.id);
    expect(row.outcome).toBe("filtered");
    // No filter and no redaction any more; the same body again is a duplicate of the filtered one.
    await api("PATCH", `/api/triggers/${t.id}`, { filter: { enabled: false }, redaction: { enabled: false } });
    await post(t.url, { test: true, card: "4242" }, auth);
    expect((await server.activity(t.id))[0].outcome).toBe("deduplicated");

    const replayed = await api("POST", `/api/triggers/${t.id}/activity/${row.id}/replay`);
    expect(replayed.status).toBe(201);
    // What was redacted when it arrived stays redacted: the kept request is the redacted $trigger.
    expect(replayed.body).toMatchObject({
      replayOf: row.id,
      requestId: row.requestId,
      trigger: { requestId: row.requestId, body: { test: true, card: "[REDACTED]" } },
    });
    expect(Object.keys(replayed.body.trigger.headers).map((h) => h.toLowerCase())).not.toContain("authorization");
    const rows = await server.activity(t.id);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ outcome: "run", runId: replayed.body.id, requestId: row.requestId, detail: `replay of ${row.id}` });
  });

  test("only a Filtered row is replayable: a run, deduplicated or rejected row is 409 saying what it was; another trigger's row is 404", async () => {
    const t = await server.createTrigger({
      name: "replay-rows",
      dedup: { strategy: "payload-hash" },
      schema: { enabled: true, document: { type: "object", required: ["id"] } },
    });
    const other = await server.createTrigger({ name: "replay-rows-other", filter: { enabled: true, mode: "exclude", expression: "$.id == 1" } });
    await post(t.url, { id: 1 });
    await post(t.url, { id: 1 });
    expect((await post(t.url, { no: "id" })).status).toBe(422);
    await post(other.url, { id: 1 });
    const rows = await server.activity(t.id);
    expect(rows.map((r) => r.outcome)).toEqual(["rejected", "deduplicated", "run"]);
    for (const row of rows) {
      const refused = await api("POST", `/api/triggers/${t.id}/activity/${row.id}/replay`, { filter: "skip" });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain(`this one was ${row.outcome}`);
    }
    const [filtered] = await server.activity(other.id);
    expect(await api("POST", `/api/triggers/${t.id}/activity/${filtered.id}/replay`)).toEqual({ status: 404, body: { error: "Activity row not found" } });
    expect((await runsOf(t.id)).length).toBe(1);
  });

  test("workflow response mode: a replay takes its turn in the queue (run concurrency), it does not start at once", async () => {
    // A target that fails, then holds every delivery until the test lets them go.
    let mode: "fail" | "hold" | "pass" = "fail";
    const held: Array<() => void> = [];
    const gated = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch() {
        if (mode === "fail") return new Response("{}", { status: 500 });
        if (mode === "hold") await new Promise<void>((resolve) => held.push(resolve));
        return new Response("{}");
      },
    });
    const small = await startTestServer({}, ["--run-concurrency", "1"]);
    try {
      const t = await small.createTrigger({
        name: "replay-workflow-mode",
        response: { mode: "workflow", timeoutMs: 5000 },
        workflow: { kind: "http", url: `http://127.0.0.1:${gated.port}/`, retry: { maxAttempts: 1 } },
      });
      // In workflow response mode the caller gets the target's own status.
      for (const n of [1, 2]) expect((await post(t.url, { n })).status).toBe(500);
      mode = "hold";
      const replay = await small.api("POST", `/api/triggers/${t.id}/replay`, { status: ["failed"] });
      expect(replay.body).toMatchObject({ matched: 2, replayed: 2 });
      await eventually(() => held.length === 1);
      const statusOf = async (id: string) => (await small.api("GET", `/api/runs/${id}`)).body.status;
      expect((await Promise.all(replay.body.runIds.map(statusOf))).sort()).toEqual(["queued", "running"]);
      mode = "pass";
      held.splice(0).forEach((release) => release());
      await eventually(async () => (await Promise.all(replay.body.runIds.map(statusOf))).every((s) => s === "succeeded"));
    } finally {
      await small.close();
      gated.stop(true);
    }
  });

  test("without `status` the failed runs are replayed, never a succeeded one by accident; each keeps its request id and leaves its Activity row", async () => {
    const t = await server.createTrigger({ name: "replay-default", workflow: { kind: "http", url: targetUrl("/default"), retry: { maxAttempts: 1 } } });
    status = 200;
    await post(t.url, { ok: true });
    await eventually(async () => (await runsOf(t.id))[0].status === "succeeded");
    status = 500;
    await post(t.url, { ok: false });
    const failed = await eventually(async () => (await runsOf(t.id)).find((r) => r.status === "failed"));

    expect((await bulk(t.id, { dryRun: true })).body).toEqual({ matched: 1, replayed: 0, runIds: [] });
    expect((await bulk(t.id, { status: ["failed", "succeeded"], dryRun: true })).body.matched).toBe(2);
    const replay = await bulk(t.id, {});
    expect(replay.body).toMatchObject({ matched: 1, replayed: 1 });
    const run = (await api("GET", `/api/runs/${replay.body.runIds[0]}`)).body;
    expect(run).toMatchObject({ replayOf: failed.id, requestId: failed.requestId });
    expect((await server.activity(t.id))[0]).toMatchObject({ outcome: "run", runId: run.id, requestId: failed.requestId, detail: `replay of ${failed.id}` });
    const none = await bulk(t.id, { status: [] });
    expect(none.status).toBe(400);
    expect(none.body.details[0].path).toBe("/status");
  });

  test("a request is replayed once per call, however many runs or Filtered rows earlier replays left of it", async () => {
    status = 500;
    const t = await server.createTrigger({
      name: "replay-once",
      filter: { enabled: true, mode: "exclude", expression: "$.skip == true" },
      workflow: { kind: "http", url: targetUrl("/once"), retry: { maxAttempts: 1 } },
    });
    await post(t.url, { skip: true });
    await post(t.url, { skip: false });
    const row = (await server.activity(t.id)).find((r) => r.outcome === "filtered");
    const [run] = await runsOf(t.id);
    expect((await settled(run.id)).status).toBe("failed");
    // Replayed by hand while the filter and the target still refuse: a second Filtered row and a second failed run.
    expect((await api("POST", `/api/triggers/${t.id}/activity/${row.id}/replay`)).body).toEqual({ outcome: "filtered" });
    const filteredAgain = (await server.activity(t.id)).find((r) => r.outcome === "filtered");
    expect(filteredAgain).toMatchObject({ requestId: row.requestId, detail: `replay of ${row.id}: filter (exclude) matched` });
    const byHand = await settled((await api("POST", `/api/runs/${run.id}/replay`)).body.id);
    expect(byHand.status).toBe("failed");

    expect((await bulk(t.id, { status: ["failed"], dryRun: true })).body.matched).toBe(1);
    expect((await bulk(t.id, { source: "filtered", dryRun: true })).body.matched).toBe(1);
    status = 200;
    await api("PATCH", `/api/triggers/${t.id}`, { filter: { enabled: false } });
    const runs = await bulk(t.id, { status: ["failed"] });
    expect(runs.body).toMatchObject({ matched: 1, replayed: 1 });
    // Its latest attempt is the one replayed: the run that replayed it by hand.
    expect((await settled(runs.body.runIds[0])).replayOf).toBe(byHand.id);
    const requests = await bulk(t.id, { source: "filtered" });
    expect(requests.body).toMatchObject({ matched: 1, replayed: 1 });
    // Its newest Filtered row: the latest attempt.
    expect((await api("GET", `/api/runs/${requests.body.runIds[0]}`)).body.replayOf).toBe(filteredAgain.id);
  });

  test("`limit` is 1000 unless given; every bad field is named in `details`", async () => {
    const t = await server.createTrigger({ name: "replay-limits" });
    for (let i = 0; i < 1001; i += 50) await Promise.all(Array.from({ length: Math.min(50, 1001 - i) }, (_, j) => post(t.url, { i: i + j })));
    const all = await bulk(t.id, { status: ["succeeded"] });
    expect(all.body).toMatchObject({ matched: 1001, replayed: 1000 });
    expect(all.body.runIds).toHaveLength(1000);
    expect((await bulk(t.id, { status: ["succeeded"], limit: 100_000, dryRun: true })).status).toBe(200);

    const bad = await bulk(t.id, { status: ["broken"], limit: 100_001, dryRun: "yes", until: "1", extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["/dryRun", "/extra", "/limit", "/status/0", "/until"]);
    for (const when of ["2026-02-30T00:00:00Z", "2026/01/02", "Jan 5 2026", "yesterday"])
      expect((await bulk(t.id, { since: when })).body.details).toEqual([{ path: "/since", message: expect.stringContaining("ISO-8601") }]);
    for (const when of ["2026-01-02", "2026-01-02T03:04:05Z", "2026-01-02T03:04:05.678+02:00"])
      expect((await bulk(t.id, { since: when, dryRun: true })).status).toBe(200);
    const backwards = await bulk(t.id, { since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" });
    expect(backwards.body.details).toEqual([{ path: "/until", message: "must not be before since" }]);
    expect((await bulk(t.id, { status: "failed", limit: 1.5 })).body.details.map((d: { path: string }) => d.path).sort()).toEqual(["/limit", "/status"]);
    expect((await bulk(t.id, [])).body.details.map((d: { path: string }) => d.path)).toEqual([""]);
    expect((await bulk(t.id, "{not json")).status).toBe(400);
  }, 30_000);
});

describe("inlet triggers replay, flag by flag", () => {
  test("--source filtered with --since/--until (both inclusive), --status lists; a bad flag or an unknown trigger fails on one line", async () => {
    const t = await server.createTrigger({ name: "replay-cli-flags", filter: { enabled: true, mode: "exclude", expression: "$.skip == true" } });
    // A few ms apart: the window below is drawn between their arrival times (ms resolution).
    for (const n of [1, 2, 3]) {
      await post(t.url, { skip: true, n });
      await Bun.sleep(3);
    }
    const rows = (await server.activity(t.id)).reverse();
    await api("PATCH", `/api/triggers/${t.id}`, { filter: { enabled: false } });
    const replay = (...args: string[]) => cli(["triggers", "replay", ...args, "--data-dir", server.dataDir]);

    const window = await replay(t.id, "--source", "filtered", "--since", rows[1].at, "--until", rows[2].at);
    expect(window.code).toBe(0);
    const result = JSON.parse(window.stdout);
    expect(result).toMatchObject({ matched: 2, replayed: 2 });
    const runs = await Promise.all(result.runIds.map(async (id: string) => (await api("GET", `/api/runs/${id}`)).body));
    expect(runs.map((r) => [r.replayOf, r.trigger.body.n])).toEqual([
      [rows[1].id, 2],
      [rows[2].id, 3],
    ]);
    const dry = await replay(t.id, "--status", "failed,succeeded", "--dry-run");
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ matched: 2, replayed: 0, runIds: [] });

    for (const [args, says] of [
      [["--since", "yesterday"], "inlet: --since: must be an ISO-8601 date-time"],
      [["--status", "bogus"], "inlet: --status: must be one of"],
      [["--source", "filtered", "--status", "failed"], "inlet: --status: filters runs by their status"],
      [["--skip-filter"], "inlet: --skip-filter: applies to filtered requests"],
    ]) {
      const bad = await replay(t.id, ...args);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe("");
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
      expect(bad.stderr).toStartWith(says as string);
    }
    const unknown = await replay("nope", "--dry-run");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toBe("inlet: trigger not found\n");
  }, 30_000);
});

/**
 * A bulk replay selects each request once, by its latest attempt (the newest row of it), and never
 * a request a run already came of: what the store selects is what is counted and what is replayed.
 */
function latestAttemptOnly(store: string, serverOf: () => TestServer) {
  describe(`bulk replay selects each request once, by its latest attempt (${store})`, () => {
    const call = (method: string, path: string, body?: unknown) => apiOn(serverOf(), method, path, body);
    const bulk = (triggerId: string, body: unknown) => call("POST", `/api/triggers/${triggerId}/replay`, body);
    const filteredTrigger = (name: string) =>
      serverOf().createTrigger({
        name,
        filter: { enabled: true, mode: "exclude", expression: "$.skip == true" },
        workflow: { kind: "http", url: targetUrl("/latest"), retry: { maxAttempts: 1 } },
      });

    test("a filtered request that a replay of its older Filtered row ran is not selected through its newer Filtered row", async () => {
      status = 200;
      const t = await filteredTrigger("replay-ran-once");
      await post(t.url, { skip: true });
      const [original] = await serverOf().activity(t.id);
      // Filtered again: a newer Filtered row that keeps the same request.
      expect((await call("POST", `/api/triggers/${t.id}/activity/${original.id}/replay`, { filter: "apply" })).body).toEqual({ outcome: "filtered" });
      const [again] = await serverOf().activity(t.id);
      expect(again).toMatchObject({ outcome: "filtered", requestId: original.requestId, detail: `replay of ${original.id}: filter (exclude) matched` });
      // Then the original row past the filter: the request has its run.
      const ran = await call("POST", `/api/triggers/${t.id}/activity/${original.id}/replay`, { filter: "skip" });
      expect(ran.status).toBe(201);
      expect((await settledOn(serverOf(), ran.body.id)).status).toBe("succeeded");

      expect((await bulk(t.id, { source: "filtered", dryRun: true })).body).toEqual({ matched: 0, replayed: 0, runIds: [] });
      expect((await bulk(t.id, { source: "filtered", filter: "skip" })).body).toEqual({ matched: 0, replayed: 0, runIds: [] });
      expect((await call("GET", `/api/runs?triggerId=${t.id}`)).body).toHaveLength(1);
    });

    test("a request with several Filtered rows is counted and replayed once, from its newest row", async () => {
      status = 200;
      const t = await filteredTrigger("replay-newest-row");
      await post(t.url, { skip: true, n: 1 });
      await post(t.url, { skip: true, n: 2 });
      const [second, first] = await serverOf().activity(t.id);
      expect((await call("POST", `/api/triggers/${t.id}/activity/${first.id}/replay`)).body).toEqual({ outcome: "filtered" });
      const [newest] = await serverOf().activity(t.id);
      expect(newest).toMatchObject({ outcome: "filtered", requestId: first.requestId });

      expect((await bulk(t.id, { source: "filtered", dryRun: true })).body.matched).toBe(2);
      const replay = await bulk(t.id, { source: "filtered", filter: "skip" });
      expect(replay.body).toMatchObject({ matched: 2, replayed: 2 });
      const runs = await Promise.all(replay.body.runIds.map((id: string) => settledOn(serverOf(), id)));
      expect(runs.map((r) => [r.replayOf, r.trigger.body.n])).toEqual([
        [second.id, 2],
        [newest.id, 1],
      ]);
    });

    test("each destination's run is its own latest attempt: replaying one destination's leaves the other's failed run selected", async () => {
      status = 500;
      const t = await serverOf().createTrigger({
        name: "replay-per-destination",
        destinations: [
          { name: "a", workflow: { kind: "http", url: targetUrl("/latest"), retry: { maxAttempts: 1 } }, breaker: { failures: 0 } },
          { name: "b", workflow: { kind: "http", url: targetUrl("/latest"), retry: { maxAttempts: 1 } }, breaker: { failures: 0 } },
        ],
      });
      await post(t.url, { n: 1 });
      const runs = (await call("GET", `/api/runs?triggerId=${t.id}`)).body;
      expect(runs).toHaveLength(2);
      for (const run of runs) expect((await settledOn(serverOf(), run.id)).status).toBe("failed");
      expect((await bulk(t.id, { dryRun: true })).body.matched).toBe(2);

      const onlyA = await bulk(t.id, { destinations: ["a"] });
      expect(onlyA.body).toMatchObject({ matched: 1, replayed: 1 });
      expect((await settledOn(serverOf(), onlyA.body.runIds[0])).status).toBe("failed");
      // a's replay (failed again) and b's original run: one latest attempt each.
      expect((await bulk(t.id, { dryRun: true })).body.matched).toBe(2);
      expect((await bulk(t.id, { destinations: ["b"], dryRun: true })).body.matched).toBe(1);
      status = 200;
      const both = await bulk(t.id, {});
      expect(both.body).toMatchObject({ matched: 2, replayed: 2 });
      const replayed = await Promise.all(both.body.runIds.map((id: string) => settledOn(serverOf(), id)));
      expect(replayed.map((r) => [r.destination, r.status]).sort()).toEqual([
        ["a", "succeeded"],
        ["b", "succeeded"],
      ]);
      expect((await bulk(t.id, { dryRun: true })).body.matched).toBe(0);
      expect((await bulk(t.id, { status: ["succeeded"], dryRun: true })).body.matched).toBe(2);
    });

    test("a run whose newest replay succeeded is not replayed by 'failed', though an older replay of it failed", async () => {
      status = 500;
      const t = await filteredTrigger("replay-newest-run");
      await post(t.url, { skip: false });
      const [run] = (await call("GET", `/api/runs?triggerId=${t.id}`)).body;
      expect((await settledOn(serverOf(), run.id)).status).toBe("failed");
      const failedAgain = await settledOn(serverOf(), (await call("POST", `/api/runs/${run.id}/replay`)).body.id);
      expect(failedAgain.status).toBe("failed");
      status = 200;
      const succeeded = await settledOn(serverOf(), (await call("POST", `/api/runs/${run.id}/replay`)).body.id);
      expect(succeeded.status).toBe("succeeded");

      expect((await bulk(t.id, { status: ["failed"] })).body).toEqual({ matched: 0, replayed: 0, runIds: [] });
      expect((await bulk(t.id, { status: ["failed", "succeeded"], dryRun: true })).body.matched).toBe(1);
    });
  });
}

latestAttemptOnly("SQLite", () => server);

describe.skipIf(!postgresAvailable())("on PostgreSQL", () => {
  let onPostgres: TestServer;
  beforeAll(async () => {
    onPostgres = await startTestServer({}, ["--database-url", await freshDatabase((await sharedPostgres())!), "--run-concurrency", "4"]);
  }, 60_000);
  afterAll(async () => {
    await onPostgres?.close();
  });
  latestAttemptOnly("PostgreSQL", () => onPostgres);
});

test("a replay is retried like a live run: its target failing the first attempt, it succeeds on the second (maxAttempts 2)", async () => {
  // 503 with Retry-After: 0, so the retry comes at once instead of after a jittered backoff.
  let failFirst = true;
  let calls = 0;
  const flaky = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => {
      calls++;
      if (failFirst) {
        failFirst = false;
        return new Response("busy", { status: 503, headers: { "Retry-After": "0" } });
      }
      return new Response("{}");
    },
  });
  try {
    const t = await server.createTrigger({
      name: "replay-retried",
      workflow: { kind: "http", url: `http://127.0.0.1:${flaky.port}/`, retry: { maxAttempts: 2 } },
    });
    await post(t.url, { n: 1 });
    const [original] = await runsOf(t.id);
    expect(await settled(original.id)).toMatchObject({ status: "succeeded", attempts: 2 });

    failFirst = true;
    const replayed = await api("POST", `/api/runs/${original.id}/replay`);
    expect(replayed.status).toBe(201);
    expect(await settled(replayed.body.id)).toMatchObject({ replayOf: original.id, status: "succeeded", attempts: 2 });
    expect(calls).toBe(4);
  } finally {
    flaky.stop(true);
  }
});
