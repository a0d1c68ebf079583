import { afterAll, expect, test } from "bun:test";
import { ScriptPool } from "./script/pool.ts";
import { runTransform, transformed } from "./transform.ts";

const pool = new ScriptPool({ size: 2, killGraceMs: 100 });
afterAll(() => pool.close());
const trigger = { body: { id: "evt_1", type: "order.paid", email: "[REDACTED]" }, headers: {}, query: {} };
const ctx = { runId: "run_1", destination: "crm", attempt: 1 };

test("the default export reshapes $trigger for a destination; ctx carries the run, destination and attempt", async () => {
  const source =
    "export default ($trigger, ctx) => ({ body: { id: $trigger.body.id, to: ctx.destination, n: ctx.attempt, run: ctx.runId }, headers: { 'X-Kind': $trigger.body.type } })";
  expect(await runTransform(pool, { source, trigger, ctx })).toEqual({
    ok: true,
    result: { body: { id: "evt_1", to: "crm", n: 1, run: "run_1" }, headers: { "X-Kind": "order.paid" } },
  });
  expect(await runTransform(pool, { source: "export default async (t) => ({ body: t.body.id })", trigger, ctx })).toEqual({
    ok: true,
    result: { body: "evt_1", headers: {} },
  });
});

test("null skips the destination", async () => {
  expect(await runTransform(pool, { source: "export default (t) => t.body.type === 'order.paid' ? null : { body: 1 }", trigger, ctx })).toEqual({
    ok: true,
    result: null,
  });
});

test("a throw, a wrong shape or the deadline fail with transform: and a message that helps", async () => {
  const fail = async (source: string, timeoutMs?: number) => {
    const outcome = await runTransform(pool, { source, trigger, ctx, timeoutMs });
    expect(outcome.ok).toBe(false);
    return (outcome as { error: string }).error;
  };
  expect(await fail("export default () => { throw new Error('no id') }")).toStartWith("transform: ");
  expect(await fail("export default () => { throw new Error('no id') }")).toContain("no id");
  expect(await fail("export default () => 42")).toBe("transform: it returned a number; return { body, headers } or null (to skip this destination)");
  expect(await fail("export default () => ({ body: 1, headers: { a: 1 } })")).toBe('transform: header "a" must be a string, not a number');
  expect(await fail("export default () => ({ body: 1, extra: true })")).toBe('transform: unknown field "extra" in what it returned (only body and headers)');
  expect(await fail("export default () => { for (;;) {} }", 30)).toStartWith("transform: ");
  expect(await fail("export default () => undefined")).toContain("returned nothing");
});

test("transformed() accepts { body } and { body, headers } and null only", () => {
  expect(transformed({ body: null })).toEqual({ ok: true, result: { body: null, headers: {} } });
  expect(transformed([1]).ok).toBe(false);
  expect(transformed({ headers: {} }).ok).toBe(false);
});

test("headers fetch would refuse, or that frame the request, fail the transform (once, not as a network error retried)", () => {
  const error = (headers: Record<string, string>) => {
    const outcome = transformed({ body: 1, headers });
    return outcome.ok ? null : outcome.error;
  };
  expect(error({ "X-Kind": "paid", "X-Tab": "a\tb" })).toBeNull();
  expect(error({ "bad name": "x" })).toStartWith('transform: header "bad name" has " " (U+0020) at position 4');
  expect(error({ "X-A": "x\ny" })).toStartWith('transform: header "X-A" has line feed (U+000A) at position 2');
  expect(error({ "X-A": "€" })).toStartWith('transform: header "X-A" has "€" (U+20AC) at position 1');
  expect(error({ Host: "evil" })).toBe('transform: header "Host" is set by inlet for the request it sends; leave it out');
  expect(error({ "content-length": "3" })).toBe('transform: header "content-length" is set by inlet for the request it sends; leave it out');
});

test("a destination's transform runs when its run starts: the workflow gets what it returned; null skips; a failure is not retried", async () => {
  const { createRunners } = await import("./runners.ts");
  const { triggerRecord } = await import("../../test/support/ingest.ts");
  const seen: Array<{ body: string; headers: Record<string, string> }> = [];
  const target = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (r) => (seen.push({ body: await r.text(), headers: Object.fromEntries(r.headers) }), new Response("ok")),
  });
  const runners = createRunners({ scriptPool: { size: 1 } });
  const url = `http://127.0.0.1:${target.port}/hook`;
  const t = triggerRecord({
    workflow: { kind: "none" },
    destinations: [
      {
        name: "slack",
        workflow: { kind: "http", url },
        transform: { source: "export default (t, ctx) => ({ body: { text: `paid ${t.body.id} via ${ctx.destination}` }, headers: { 'X-Shape': 'slack' } })" },
      },
      { name: "quiet", workflow: { kind: "http", url }, transform: { source: "export default () => null" } },
      { name: "broken", workflow: { kind: "http", url, retry: { maxAttempts: 5 } }, transform: { source: "export default (t) => t.body.missing.field" } },
    ],
  });
  const run = (destination: string) => ({
    id: `run-${destination}`,
    triggerId: t.id,
    requestId: "req",
    status: "running" as const,
    trigger: { body: { id: "evt_1" } },
    result: null,
    attempts: 0,
    error: null,
    createdAt: new Date().toISOString(),
    finishedAt: null,
    destination,
  });
  const context = { signal: new AbortController().signal, recordAttempt: async () => true };
  try {
    const slack = await runners.execute(t, run("slack"), context);
    expect(slack.status).toBe("succeeded");
    expect(JSON.parse(seen[0].body)).toEqual({ text: "paid evt_1 via slack" });
    expect(seen[0].headers["x-shape"]).toBe("slack");
    expect(await runners.execute(t, run("quiet"), context)).toMatchObject({ status: "skipped", attempts: 0, result: { skipped: "transform returned null" } });
    const broken = await runners.execute(t, run("broken"), context);
    expect(broken).toMatchObject({ status: "failed", attempts: 1 });
    expect(broken.error).toStartWith("transform: ");
    expect(seen).toHaveLength(1);
  } finally {
    target.stop(true);
    await runners.close();
  }
});
