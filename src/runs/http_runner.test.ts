import { afterAll, expect, test } from "bun:test";
import type { ClaimedRun } from "../records/run.ts";
import { DEFAULT_HTTP_MAX_ATTEMPTS, DEFAULT_HTTP_TIMEOUT_MS, httpRunner } from "./http_runner.ts";
import { RunAborted, type RunContext, type WorkflowOf } from "./types.ts";

/** A target whose answers are scripted per test: `plan` maps the n-th request (1-based) to a Response. */
let plan: (n: number, request: Request) => Response | Promise<Response> = () => new Response("ok");
let seen: Array<{ headers: Headers; body: string; at: number }> = [];
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    seen.push({ headers: request.headers, body: await request.text(), at: performance.now() });
    return plan(seen.length, request);
  },
});
afterAll(() => target.stop(true));

const url = `http://127.0.0.1:${target.port}/hook`;
const run: ClaimedRun = {
  id: "0190-run",
  triggerId: "t1",
  requestId: "req-1",
  status: "running",
  trigger: { body: { order: 42 }, method: "POST" },
  result: null,
  attempts: 0,
  error: null,
  createdAt: new Date().toISOString(),
  finishedAt: null,
};
const runner = httpRunner({ backoff: { baseMs: 20, maxMs: 40, maxRetryAfterMs: 300 } });
const workflow = (extra: Partial<WorkflowOf<"http">> = {}): WorkflowOf<"http"> => ({ kind: "http", url, ...extra });

function context(signal = new AbortController().signal) {
  const recorded: Array<{ attempts: number; result: any }> = [];
  const ctx: RunContext = { signal, recordAttempt: async (attempts, result) => (recorded.push({ attempts, result }), true) };
  return { ctx, recorded };
}

function reset(next: typeof plan) {
  seen = [];
  plan = next;
}

test("POSTs $trigger as JSON with the run id as X-Inlet-Run-Id and Idempotency-Key; the answer is relayed", async () => {
  reset(() => new Response("a,b\n1,2", { status: 201, headers: { "Content-Type": "text/csv" } }));
  const { ctx } = context();
  const outcome = await runner(workflow({ headers: { Authorization: "Bearer downstream", "Idempotency-Key": "theirs" } }), run, ctx);
  expect(seen).toHaveLength(1);
  expect(JSON.parse(seen[0].body)).toEqual(run.trigger);
  expect(seen[0].headers.get("content-type")).toBe("application/json");
  expect(seen[0].headers.get("x-inlet-run-id")).toBe(run.id);
  expect(seen[0].headers.get("idempotency-key")).toBe(run.id);
  expect(seen[0].headers.get("authorization")).toBe("Bearer downstream");
  expect(outcome).toMatchObject({ status: "succeeded", attempts: 1, error: null });
  expect(outcome.result).toMatchObject({ url, status: 201, contentType: "text/csv", body: "a,b\n1,2", attempts: [{ status: 201 }] });
  expect(outcome.answer?.status).toBe(201);
  expect(outcome.answer?.headers).toEqual({ "Content-Type": "text/csv" });
  expect(new TextDecoder().decode(outcome.answer?.body as Uint8Array)).toBe("a,b\n1,2");
});

test("5xx, 408 and 429 are retried; every attempt is recorded with its status", async () => {
  const answers = [503, 408, 429, 200];
  reset((n) => new Response(`answer ${n}`, { status: answers[n - 1] }));
  const { ctx, recorded } = context();
  const outcome = await runner(workflow(), run, ctx);
  expect(outcome.status).toBe("succeeded");
  expect(outcome.attempts).toBe(4);
  expect((outcome.result as any).attempts.map((a: any) => a.status)).toEqual([503, 408, 429, 200]);
  expect(recorded.map((r) => r.attempts)).toEqual([1, 2, 3]);
  expect(recorded[2].result.attempts).toHaveLength(3);
  // Same run, same key on every attempt.
  expect(new Set(seen.map((s) => s.headers.get("idempotency-key")))).toEqual(new Set([run.id]));
});

test("no retry on 400 (nor any other 4xx): one attempt, failed, the answer relayed", async () => {
  reset(() => Response.json({ error: "bad field" }, { status: 400 }));
  const outcome = await runner(workflow(), run, context().ctx);
  expect(seen).toHaveLength(1);
  expect(outcome).toMatchObject({ status: "failed", attempts: 1, error: "the target answered 400" });
  expect(outcome.answer?.status).toBe(400);
  expect(outcome.answer?.headers["Content-Type"]).toContain("application/json");
});

test("gives up after retry.maxAttempts; the last answer stands", async () => {
  reset(() => new Response("down", { status: 500 }));
  const outcome = await runner(workflow({ retry: { maxAttempts: 3 } }), run, context().ctx);
  expect(seen).toHaveLength(3);
  expect(outcome).toMatchObject({ status: "failed", attempts: 3, error: "the target answered 500 (attempt 3 of 3)" });
  expect(outcome.answer?.status).toBe(500);
});

test("Retry-After (seconds) is honoured, capped", async () => {
  reset((n) => (n === 1 ? new Response("slow down", { status: 429, headers: { "Retry-After": "3600" } }) : new Response("ok")));
  const outcome = await runner(workflow(), run, context().ctx);
  expect(outcome.status).toBe("succeeded");
  const waited = seen[1].at - seen[0].at;
  // Capped at maxRetryAfterMs (300 ms here), not an hour, and not the jittered 0–20 ms.
  expect(waited).toBeGreaterThanOrEqual(280);
  expect(waited).toBeLessThan(1500);
  expect((outcome.result as any).attempts[0].retryInMs).toBe(300);
});

test("Retry-After as an HTTP date is honoured", async () => {
  reset((n) => (n === 1 ? new Response("", { status: 503, headers: { "Retry-After": new Date(Date.now() + 1200).toUTCString() } }) : new Response("ok")));
  const outcome = await runner(workflow(), run, context().ctx);
  expect(outcome.status).toBe("succeeded");
  // A date has one-second precision: somewhere in (0, 300] ms after the cap.
  expect((outcome.result as any).attempts[0].retryInMs).toBeGreaterThan(0);
  expect((outcome.result as any).attempts[0].retryInMs).toBeLessThanOrEqual(300);
});

test("an unreachable target is retried, then fails with 502 as the workflow answer", async () => {
  const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
  const port = closed.port;
  closed.stop(true);
  const { ctx, recorded } = context();
  const outcome = await runner(workflow({ url: `http://127.0.0.1:${port}/gone`, retry: { maxAttempts: 2 } }), run, ctx);
  expect(outcome.status).toBe("failed");
  expect(outcome.attempts).toBe(2);
  expect(outcome.answer).toBeNull();
  expect(outcome.failureStatus).toBe(502);
  expect(outcome.error).toContain("unreachable after 2 attempts");
  expect((outcome.result as any).attempts.every((a: any) => a.error?.startsWith("network error"))).toBe(true);
  expect(recorded).toHaveLength(1);
});

test("timeoutMs bounds each attempt", async () => {
  reset(async () => {
    await Bun.sleep(1000);
    return new Response("late");
  });
  const started = performance.now();
  const outcome = await runner(workflow({ timeoutMs: 150, retry: { maxAttempts: 2 } }), run, context().ctx);
  expect(performance.now() - started).toBeLessThan(900);
  expect(outcome).toMatchObject({ status: "failed", attempts: 2, failureStatus: 502 });
  expect((outcome.result as any).attempts.map((a: any) => a.error)).toEqual(["timed out after 150 ms", "timed out after 150 ms"]);
});

test("stopping the server aborts the run between attempts (it goes back to the queue)", async () => {
  reset(() => new Response("", { status: 503, headers: { "Retry-After": "60" } }));
  const controller = new AbortController();
  const running = runner(workflow(), run, context(controller.signal).ctx);
  await Bun.sleep(100);
  controller.abort();
  await expect(running).rejects.toBeInstanceOf(RunAborted);
});

test("the stored body is bounded (64 KiB); the relayed answer is the whole body", async () => {
  reset(() => new Response("z".repeat(100_000), { headers: { "Content-Type": "text/plain" } }));
  const outcome = await runner(workflow(), run, context().ctx);
  const result = outcome.result as any;
  expect(result).toMatchObject({ bodyBytes: 100_000, bodyTruncated: true });
  expect(result.body).toBe("z".repeat(65_536) + "\n[truncated: 34464 more bytes]");
  expect((outcome.answer?.body as Uint8Array).byteLength).toBe(100_000);
});

test("defaults: 5 attempts, exponential backoff with full jitter between them (ceiling doubles per attempt, capped)", async () => {
  reset(() => new Response("down", { status: 500 }));
  // random 0.5: each wait is half its ceiling, 20 → 40 → 70 (capped) → 70.
  const halfJitter = httpRunner({ backoff: { baseMs: 20, maxMs: 70, maxRetryAfterMs: 300 }, random: () => 0.5 });
  const outcome = await halfJitter(workflow(), run, context().ctx);
  expect(seen).toHaveLength(DEFAULT_HTTP_MAX_ATTEMPTS);
  expect(outcome).toMatchObject({ status: "failed", attempts: 5, error: "the target answered 500 (attempt 5 of 5)" });
  expect((outcome.result as any).attempts.map((a: any) => a.retryInMs)).toEqual([10, 20, 35, 35, undefined]);
  expect([DEFAULT_HTTP_MAX_ATTEMPTS, DEFAULT_HTTP_TIMEOUT_MS]).toEqual([5, 10_000]);
});

test("no 4xx other than 408 and 429 is retried", async () => {
  for (const status of [401, 403, 404, 409, 410, 422]) {
    reset(() => new Response("no", { status }));
    const outcome = await runner(workflow(), run, context().ctx);
    expect(seen).toHaveLength(1);
    expect(outcome).toMatchObject({ status: "failed", attempts: 1, error: `the target answered ${status}` });
  }
});

test("a run resumed after a restart goes on from the attempts it already made: one retry budget, every attempt in its result", async () => {
  reset(() => new Response("down", { status: 503 }));
  const earlier = [
    { at: "2026-01-01T00:00:00.000Z", durationMs: 3, status: 503, retryInMs: 10 },
    { at: "2026-01-01T00:00:01.000Z", durationMs: 3, status: 503, retryInMs: 20 },
  ];
  const resumed: ClaimedRun = { ...run, attempts: 2, result: { url, status: 503, attempts: earlier } };
  const outcome = await runner(workflow({ retry: { maxAttempts: 3 } }), resumed, context().ctx);
  expect(seen).toHaveLength(1);
  expect(outcome).toMatchObject({ status: "failed", attempts: 3, error: "the target answered 503 (attempt 3 of 3)" });
  expect((outcome.result as any).attempts.map((a: any) => a.status)).toEqual([503, 503, 503]);
  // Its budget already spent (the limit was lowered since): still delivered once more, at least once.
  reset(() => new Response("ok"));
  const spent = await runner(workflow({ retry: { maxAttempts: 1 } }), resumed, context().ctx);
  expect(seen).toHaveLength(1);
  expect(spent).toMatchObject({ status: "succeeded", attempts: 3 });
});

test("once an attempt opens the breaker, no further attempt: the run goes back to the queue with the attempts it made, on disk first", async () => {
  reset(() => new Response("down", { status: 503 }));
  const { ctx, recorded } = context();
  let failures = 0;
  let storedBeforeGivenBack = false;
  ctx.recordAttempt = async (attempts, result) => {
    await Bun.sleep(10);
    recorded.push({ attempts, result });
    storedBeforeGivenBack = true;
    return true;
  };
  // The breaker opens on its second failure (failures: 2).
  ctx.attemptEnded = async (ok) => (ok ? true : ++failures < 2);
  const error = await runner(workflow({ retry: { maxAttempts: 5 } }), run, ctx).catch((e) => e);
  expect(error).toBeInstanceOf(RunAborted);
  expect(error.message).toBe("the destination's breaker opened; the run goes back to the queue");
  expect(seen).toHaveLength(2);
  expect(storedBeforeGivenBack).toBe(true);
  expect(recorded.map((r) => r.attempts)).toEqual([1, 2]);
  // Its last attempt: the run's retry budget ends there whatever the breaker says.
  reset(() => new Response("down", { status: 503 }));
  failures = 0;
  const last = await runner(workflow({ retry: { maxAttempts: 2 } }), run, ctx);
  expect(last).toMatchObject({ status: "failed", attempts: 2 });
});

test("a run waiting for its retry makes no attempt once another run opened the breaker: it is given back before it", async () => {
  reset(() => new Response("down", { status: 503 }));
  const { ctx, recorded } = context();
  ctx.attemptEnded = async () => true;
  ctx.mayAttempt = async () => false;
  const error = await runner(workflow({ retry: { maxAttempts: 5 } }), run, ctx).catch((e) => e);
  expect(error).toBeInstanceOf(RunAborted);
  expect(seen).toHaveLength(1);
  expect(recorded.map((r) => r.attempts)).toEqual([1]);
  // Attempts that could not be stored: it goes on instead (given back, it would exceed its maxAttempts).
  reset(() => new Response("down", { status: 503 }));
  ctx.recordAttempt = async () => false;
  expect(await runner(workflow({ retry: { maxAttempts: 3 } }), run, ctx)).toMatchObject({ status: "failed", attempts: 3 });
  expect(seen).toHaveLength(3);
});
