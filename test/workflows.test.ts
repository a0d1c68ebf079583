import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cli } from "./support/process.ts";
import { eventually, startTestServer, UUID, type TestServer } from "./support/server.ts";

/** A downstream http target; `answer` is set per test. */
let answer: (request: Request) => Response | Promise<Response> = () => new Response("ok");
const received: Array<{ runId: string | null; key: string | null; body: any }> = [];
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    received.push({ runId: request.headers.get("x-inlet-run-id"), key: request.headers.get("idempotency-key"), body: await request.json() });
    return answer(request);
  },
});
const targetUrl = `http://127.0.0.1:${target.port}/hook`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--run-concurrency", "4"]);
});
afterAll(async () => {
  await server.close();
  target.stop(true);
});

const post = (url: string, body: unknown) => fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
const runsOf = async (triggerId: string) => (await server.api("GET", `/api/runs?triggerId=${triggerId}`)).body as any[];
const workflowMode = (workflow: Record<string, unknown>, timeoutMs = 5000) => ({ response: { mode: "workflow", timeoutMs }, workflow });

async function expectFailure(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const id = response.headers.get("x-request-id");
  expect(id).toMatch(UUID);
  expect(await response.json()).toEqual({ error, request_id: id });
  return id!;
}

describe("workflow response mode", () => {
  test("a script's {status, headers, body} is the response, with X-Request-Id", async () => {
    const t = await server.createTrigger({
      name: "script-answer",
      ...workflowMode({
        kind: "script",
        source: "export default ($trigger, ctx) => ({ status: 202, headers: { 'X-Order': String($trigger.body.order) }, body: { ok: true, run: ctx.runId } })",
      }),
    });
    const response = await post(t.url, { order: 7 });
    expect(response.status).toBe(202);
    expect(response.headers.get("x-order")).toBe("7");
    expect(response.headers.get("content-type")).toBe("application/json");
    // Served from the panel's origin: never sniffed, never a document that runs script there.
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(UUID);
    const body = await response.json();
    const [run] = await runsOf(t.id);
    expect(body).toEqual({ ok: true, run: run.id });
    expect(run).toMatchObject({ requestId, status: "succeeded", attempts: 1, error: null });
    expect(run.finishedAt).not.toBeNull();
  });

  test("a script that throws or hits its limits: 500 workflow failed; the reason is in the run", async () => {
    const t = await server.createTrigger({
      name: "script-throws",
      ...workflowMode({ kind: "script", source: "export default () => { throw new Error('no amount') }" }),
    });
    const requestId = await expectFailure(await post(t.url, {}), 500, "workflow failed");
    const [run] = await runsOf(t.id);
    expect(run).toMatchObject({ requestId, status: "failed", error: "the script threw Error: no amount" });
    const spin = await server.createTrigger({
      name: "script-spins",
      ...workflowMode({ kind: "script", source: "export default () => { while (true) {} }", timeoutMs: 150 }),
    });
    const started = performance.now();
    await expectFailure(await post(spin.url, {}), 500, "workflow failed");
    expect(performance.now() - started).toBeLessThan(1500);
    expect((await runsOf(spin.id))[0].error).toContain("deadline");
  });

  test("a command's JSON stdout is a 200; a non-zero exit is 500 workflow failed", async () => {
    const t = await server.createTrigger({
      name: "command-json",
      ...workflowMode({ kind: "command", argv: ["sh", "-c", 'read -r t; echo "{\\"run\\":\\"$INLET_RUN_ID\\",\\"trigger\\":$t}"'] }),
    });
    const response = await post(t.url, { a: 1 });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("x-request-id")).toMatch(UUID);
    const body = await response.json();
    expect(body.trigger.body).toEqual({ a: 1 });
    expect(body.run).toBe((await runsOf(t.id))[0].id);

    const text = await server.createTrigger({ name: "command-text", ...workflowMode({ kind: "command", argv: ["echo", "deployed"] }) });
    const plain = await post(text.url, {});
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toStartWith("text/plain");
    expect(await plain.text()).toBe("deployed\n");

    const failing = await server.createTrigger({ name: "command-fails", ...workflowMode({ kind: "command", argv: ["sh", "-c", "echo broken >&2; exit 2"] }) });
    await expectFailure(await post(failing.url, {}), 500, "workflow failed");
    expect((await runsOf(failing.id))[0]).toMatchObject({ status: "failed", error: "exited with code 2", result: { exitCode: 2, stderr: "broken\n" } });
  });

  test("an http target's status, body and content type are relayed", async () => {
    answer = () => new Response("id,total\n1,20\n", { status: 201, headers: { "Content-Type": "text/csv", "X-Internal": "not relayed" } });
    const t = await server.createTrigger({ name: "http-relay", ...workflowMode({ kind: "http", url: targetUrl }) });
    const response = await post(t.url, { n: 1 });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("text/csv");
    expect(response.headers.get("x-internal")).toBeNull();
    expect(response.headers.get("x-request-id")).toMatch(UUID);
    expect(await response.text()).toBe("id,total\n1,20\n");
  });

  test("an http target unreachable after its retries: 502 workflow failed", async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const t = await server.createTrigger({ name: "http-down", ...workflowMode({ kind: "http", url: `http://127.0.0.1:${port}/`, retry: { maxAttempts: 2 } }) });
    const requestId = await expectFailure(await post(t.url, {}), 502, "workflow failed");
    const [run] = await runsOf(t.id);
    expect(run).toMatchObject({ requestId, status: "failed", attempts: 2 });
    expect(run.error).toContain("unreachable");
  });

  test("past response.timeoutMs: 504 workflow timed out, while the run still finishes and is recorded", async () => {
    // The target answers only once the caller has had its 504: the 504 cannot have waited for it.
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    answer = async () => {
      await released;
      return Response.json({ late: true });
    };
    const t = await server.createTrigger({ name: "http-slow", ...workflowMode({ kind: "http", url: targetUrl }, 150) });
    const requestId = await expectFailure(await post(t.url, {}), 504, "workflow timed out");
    release();
    const run = await eventually(async () => (await runsOf(t.id)).find((r) => r.status === "succeeded"), 5000);
    expect(run).toMatchObject({ requestId, attempts: 1, result: { status: 200, body: '{"late":true}' } });
  });

  test("deduplicated: plain 200 ack with X-Service-Deduplicated: true; the workflow's response is never replayed", async () => {
    const t = await server.createTrigger({
      name: "dedup-workflow",
      dedup: { strategy: "payload-hash" },
      ...workflowMode({ kind: "script", source: "export default () => ({ status: 201, body: 'created' })" }),
    });
    const first = await post(t.url, { same: true });
    expect(first.status).toBe(201);
    expect(await first.text()).toBe("created");
    expect(first.headers.get("x-service-deduplicated")).toBeNull();
    const second = await post(t.url, { same: true });
    expect(second.status).toBe(200);
    expect(second.headers.get("x-service-deduplicated")).toBe("true");
    const id = second.headers.get("x-request-id");
    expect(await second.json()).toEqual({ received: true, request_id: id });
    expect(await runsOf(t.id)).toHaveLength(1);
  });
});

describe("immediate mode runs", () => {
  test("acknowledged at once; the http workflow then runs with the run id as X-Inlet-Run-Id and Idempotency-Key", async () => {
    answer = () => new Response("thanks");
    const t = await server.createTrigger({ name: "background-http", workflow: { kind: "http", url: targetUrl } });
    const response = await post(t.url, { bg: 1 });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id");
    expect(await response.json()).toEqual({ received: true, request_id: requestId });
    const run = await eventually(async () => (await runsOf(t.id)).find((r) => r.status === "succeeded"));
    expect(run).toMatchObject({ requestId, attempts: 1, error: null, result: { status: 200, body: "thanks" } });
    const hit = received.find((r) => r.runId === run.id);
    expect(hit?.key).toBe(run.id);
    expect(hit?.body).toMatchObject({ body: { bg: 1 }, requestId, triggerId: t.id });
  });

  test("a failing target is retried; the run records each attempt, then `inlet runs list|show` show status and attempts", async () => {
    let calls = 0;
    answer = () => (++calls < 3 ? new Response("busy", { status: 503, headers: { "Retry-After": "0" } }) : new Response("finally"));
    const t = await server.createTrigger({ name: "retried", workflow: { kind: "http", url: targetUrl, retry: { maxAttempts: 4 } } });
    await post(t.url, { retry: true });
    const run = await eventually(async () => (await runsOf(t.id)).find((r) => r.status === "succeeded"), 10_000);
    expect(run.attempts).toBe(3);
    expect(run.result.attempts.map((a: any) => a.status)).toEqual([503, 503, 200]);

    const list = await cli(["runs", "list", "--trigger", t.id, "--data-dir", server.dataDir]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject([{ id: run.id, status: "succeeded", attempts: 3 }]);
    const show = await cli(["runs", "show", run.id, "--data-dir", server.dataDir]);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ id: run.id, status: "succeeded", attempts: 3, error: null, result: { status: 200 } });
  });

  test("no retry on a 400: the run fails after one attempt", async () => {
    answer = () => Response.json({ error: "unknown field" }, { status: 400 });
    const t = await server.createTrigger({ name: "rejected-by-target", workflow: { kind: "http", url: targetUrl } });
    await post(t.url, {});
    const run = await eventually(async () => (await runsOf(t.id)).find((r) => r.status === "failed"));
    expect(run).toMatchObject({ attempts: 1, error: "the target answered 400" });
  });
});

describe("what each workflow kind is given, and how runs move through their states", () => {
  test("http, command and script get the same $trigger as the run stores: redacted, without the credential headers", async () => {
    let targetHeaders = new Headers();
    answer = (request) => {
      targetHeaders = request.headers;
      return Response.json(received.at(-1)!.body);
    };
    const kinds: Array<Record<string, unknown>> = [
      { kind: "http", url: targetUrl, headers: { "X-Downstream": "key-1" } },
      { kind: "command", argv: ["cat"] },
      { kind: "script", source: "export default ($trigger) => ({ body: $trigger })" },
    ];
    for (const workflow of kinds) {
      const t = await server.createTrigger({
        name: `given-${workflow.kind}`,
        auth: { type: "bearer" },
        redaction: { enabled: true, patterns: ["^email$"] },
        ...workflowMode(workflow),
      });
      const response = await fetch(`${t.url}?email=query-pii%40example.org&page=2`, {
        method: "POST",
        body: JSON.stringify({ email: "body-pii@example.org", order: { id: 7 } }),
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${t.secret}`, "X-Custom": "kept" },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toStartWith("application/json");
      const given = await response.json();
      const [run] = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
      expect(given).toEqual(run.trigger);
      expect(given).toMatchObject({
        body: { email: "[REDACTED]", order: { id: 7 } },
        query: { email: "[REDACTED]", page: "2" },
        method: "POST",
        requestId: run.requestId,
        triggerId: t.id,
        app: null,
      });
      expect(given.headers["x-custom"]).toBe("kept");
      expect(Object.keys(given.headers)).not.toContain("authorization");
      expect(JSON.stringify(given)).not.toMatch(/pii@example|Bearer/);
    }
    expect(targetHeaders.get("x-downstream")).toBe("key-1");
    expect(targetHeaders.get("content-type")).toBe("application/json");
    expect(targetHeaders.get("user-agent")).toStartWith("inlet/");
  });

  test("queued while the run concurrency is used up, running while it executes, then succeeded; never more than --run-concurrency at once", async () => {
    const gate = Promise.withResolvers<void>();
    let inFlight = 0;
    let peak = 0;
    answer = async () => {
      peak = Math.max(peak, ++inFlight);
      await gate.promise;
      inFlight--;
      return new Response("done");
    };
    // Its two destinations may each run more than the server's 4 at once: the server's bound is
    // what holds here (one destination alone would get 3: it never holds the last slot).
    const t = await server.createTrigger({
      name: "saturated",
      destinations: [
        { name: "default", workflow: { kind: "http", url: targetUrl }, concurrency: 64 },
        { name: "second", workflow: { kind: "http", url: targetUrl }, concurrency: 64 },
      ],
    });
    for (let i = 0; i < 3; i++) expect((await post(t.url, { i })).status).toBe(200);
    await eventually(() => inFlight === 4);
    const during = await runsOf(t.id);
    expect(during.map((r) => r.status).sort()).toEqual(["queued", "queued", "running", "running", "running", "running"]);
    for (const run of during) expect(run).toMatchObject({ finishedAt: null, error: null });
    gate.resolve();
    const after = await eventually(async () => {
      const runs = await runsOf(t.id);
      return runs.every((r) => r.status === "succeeded") && runs;
    }, 10_000);
    expect(peak).toBe(4);
    for (const run of after) {
      expect(run).toMatchObject({ attempts: 1, error: null, result: { status: 200, body: "done" } });
      expect(Date.parse(run.finishedAt)).toBeGreaterThanOrEqual(Date.parse(run.createdAt));
    }
  });

  test("a destination runs at most its concurrency at once: 2 by default, the workflow shorthand's too", async () => {
    const gate = Promise.withResolvers<void>();
    let inFlight = 0;
    let peak = 0;
    answer = async () => {
      peak = Math.max(peak, ++inFlight);
      await gate.promise;
      inFlight--;
      return new Response("done");
    };
    const t = await server.createTrigger({ name: "two-at-once", workflow: { kind: "http", url: targetUrl } });
    for (let i = 0; i < 5; i++) expect((await post(t.url, { i })).status).toBe(200);
    await eventually(() => inFlight === 2);
    await Bun.sleep(300);
    expect((await runsOf(t.id)).map((r) => r.status).sort()).toEqual(["queued", "queued", "queued", "running", "running"]);
    gate.resolve();
    await eventually(async () => (await runsOf(t.id)).every((r) => r.status === "succeeded"), 10_000);
    expect(peak).toBe(2);
  });

  test("between retries a run is running with the attempts made so far; it ends with every attempt in its result", async () => {
    const secondAttempt = Promise.withResolvers<void>();
    const reached = Promise.withResolvers<void>();
    let calls = 0;
    answer = async () => {
      if (++calls === 1) return new Response("busy", { status: 503, headers: { "Retry-After": "0" } });
      reached.resolve();
      await secondAttempt.promise;
      return new Response("ok");
    };
    const t = await server.createTrigger({ name: "mid-retry", workflow: { kind: "http", url: targetUrl, retry: { maxAttempts: 3 } } });
    await post(t.url, {});
    await reached.promise;
    const between = await eventually(async () => (await runsOf(t.id)).find((r) => r.attempts === 1));
    expect(between).toMatchObject({ status: "running", finishedAt: null, error: null, result: { attempts: [{ status: 503, retryInMs: 0 }] } });
    secondAttempt.resolve();
    const run = await eventually(async () => (await runsOf(t.id)).find((r) => r.status === "succeeded"));
    expect(run).toMatchObject({ attempts: 2, error: null, result: { status: 200, body: "ok" } });
    expect(run.result.attempts.map((a: any) => a.status)).toEqual([503, 200]);
  });

  test("workflow response mode: a target that answers is relayed as it answered (a 4xx at once, a 5xx after its retries); only an unreachable one is 502", async () => {
    let calls = 0;
    answer = () => (++calls, new Response("maintenance", { status: 503, headers: { "Content-Type": "text/plain", "Retry-After": "0" } }));
    const busy = await server.createTrigger({ name: "target-503", ...workflowMode({ kind: "http", url: targetUrl, retry: { maxAttempts: 2 } }) });
    const relayed = await post(busy.url, {});
    expect([relayed.status, relayed.headers.get("content-type"), await relayed.text(), calls]).toEqual([503, "text/plain", "maintenance", 2]);
    expect((await runsOf(busy.id))[0]).toMatchObject({ status: "failed", attempts: 2, error: "the target answered 503 (attempt 2 of 2)" });

    answer = () => Response.json({ error: "unknown field" }, { status: 422 });
    const strict = await server.createTrigger({ name: "target-422", ...workflowMode({ kind: "http", url: targetUrl }) });
    const refused = await post(strict.url, {});
    expect(refused.status).toBe(422);
    expect(refused.headers.get("x-request-id")).toMatch(UUID);
    expect(await refused.json()).toEqual({ error: "unknown field" });
    expect((await runsOf(strict.id))[0]).toMatchObject({ status: "failed", attempts: 1, error: "the target answered 422" });
  });
});
