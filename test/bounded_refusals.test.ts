import { afterAll, beforeAll, expect, test } from "bun:test";
import { withPinnedClock, type PinnedClock } from "./support/clock.ts";
import { eventually, startTestServer, UUID, type TestServer } from "./support/server.ts";

// Bounded refusals (README "Security"): a flood of refused requests to a trigger leaves, per
// outcome and clock minute, its first 60 as rows of their own and the rest counted on one row
// per reason; the senders' answers are the same as ever.
let server: TestServer;
let limited: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--alert-interval", "1"]);
  limited = await startTestServer({ rateLimit: 1 });
});
afterAll(async () => {
  await server?.close();
  await limited?.close();
});

const FLOOD = 500;

/** Pins the clock 5 s into the next clock minute: a flood sent now lands in one minute, however slow the machine. */
const intoOneMinute = (clock: PinnedClock) => clock.set(Math.ceil(clock.now() / 60_000) * 60_000 + 5_000);

/** Sends `n` requests one after another (their rows are written in that order); the answers, each with its body read. */
async function flood(url: string, n: number, headers: Record<string, string>) {
  const answers = [];
  for (let i = 0; i < n; i++) {
    const response = await fetch(url, { method: "POST", body: JSON.stringify({ i }), headers: { "Content-Type": "application/json", ...headers } });
    answers.push({ status: response.status, headers: response.headers, body: await response.json() });
  }
  return answers;
}

/** The trigger's rows once every refusal of the flood is in them (a counted row grows after its answer went out). */
async function rowsCounting(s: TestServer, triggerId: string, requests: number) {
  return eventually(async () => {
    const rows = (await s.api("GET", `/api/triggers/${triggerId}/activity?limit=500`)).body as Array<{
      requestId: string;
      outcome: string;
      detail: string;
      count: number;
    }>;
    return rows.reduce((n, r) => n + r.count, 0) === requests ? rows : null;
  });
}

/** Every answer has the same status, header names and body shape as the first; its request id is fresh and in both places. */
function expectIdenticalInShape(answers: Array<{ status: number; headers: Headers; body: Record<string, unknown> }>, status: number, error: string) {
  const headerNames = (h: Headers) => [...h.keys()].filter((k) => k !== "date").sort();
  const first = answers[0];
  for (const answer of answers) {
    expect(answer.status).toBe(status);
    expect(headerNames(answer.headers)).toEqual(headerNames(first.headers));
    expect(answer.body).toEqual({ error, request_id: answer.headers.get("x-request-id") });
    expect(answer.body.request_id).toMatch(UUID);
  }
  expect(new Set(answers.map((a) => a.body.request_id)).size).toBe(answers.length);
}

test("500 wrong-secret requests in one minute: 60 rows of their own and one counted row of 440; every answer the same 401", async () => {
  const guarded = await server.createTrigger({ name: "flooded", auth: { type: "bearer" } });
  await withPinnedClock(async (clock) => {
    intoOneMinute(clock);
    const answers = await flood(guarded.url, FLOOD, { Authorization: "Bearer wrong" });
    expectIdenticalInShape(answers, 401, "authentication failed");
    const ids = answers.map((a) => a.body.request_id);

    const rows = await rowsCounting(server, guarded.id, FLOOD);
    expect(rows).toHaveLength(61);
    // Newest first: the counted row (the 61st request's), then the first 60, each its own.
    expect(rows[0]).toMatchObject({
      outcome: "auth_failed",
      label: "Authentication failed",
      detail: "wrong bearer token",
      count: FLOOD - 60,
      requestId: ids[60],
      runId: null,
    });
    expect(rows.slice(1).map((r) => [r.requestId, r.count])).toEqual(
      ids
        .slice(0, 60)
        .reverse()
        .map((id) => [id, 1]),
    );
  });
});

test("a rate-limited flood: 60 rejected rows and one counted row; every 429 the same, with Retry-After", async () => {
  const busy = await limited.createTrigger({ name: "busy" });
  await withPinnedClock(async (clock) => {
    intoOneMinute(clock);
    // The pinned clock never refills the bucket: the first is accepted, every other one refused.
    const [accepted, ...refused] = await flood(busy.url, FLOOD, {});
    expect(accepted.status).toBe(200);
    expectIdenticalInShape(refused, 429, "rate limited");
    for (const answer of refused) expect(answer.headers.get("retry-after")).toBe("1");

    const rows = await rowsCounting(limited, busy.id, FLOOD);
    expect(rows).toHaveLength(1 + 61);
    expect(rows[0]).toMatchObject({ outcome: "rejected", detail: "rate limited", count: FLOOD - 1 - 60, requestId: refused[60].body.request_id });
    expect(rows.filter((r) => r.outcome === "rejected" && r.count === 1)).toHaveLength(60);
    expect(rows.at(-1)).toMatchObject({ outcome: "run", count: 1, requestId: accepted.body.request_id });
  });
});

test("an auth_failures alert counts every refused request of a flood, the counted ones included", async () => {
  const watched = await server.createTrigger({ name: "watched", auth: { type: "bearer" }, alerts: [{ kind: "auth_failures", count: FLOOD, seconds: 300 }] });
  await withPinnedClock(async (clock) => {
    intoOneMinute(clock);
    await flood(watched.url, FLOOD, { Authorization: "Bearer wrong" });
    expect(await rowsCounting(server, watched.id, FLOOD)).toHaveLength(61);
    const alert = await eventually(async () => {
      const alerts = (await server.api("GET", "/api/alerts")).body as Array<{ triggerId: string; state: string; value: number }>;
      return alerts.find((a) => a.triggerId === watched.id && a.state === "firing");
    }, 10_000);
    expect(alert).toMatchObject({ kind: "auth_failures", value: FLOOD, threshold: FLOOD });
  });
}, 20_000);
