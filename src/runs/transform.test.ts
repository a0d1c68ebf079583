import { afterAll, expect, test } from "bun:test";
import { ScriptPool } from "./script/pool.ts";
import { runTransform, transformed } from "./transform.ts";

const pool = new ScriptPool({ size: 2, killGraceMs: 100 });
afterAll(() => pool.close());
const trigger = { body: { id: "evt_1", type: "order.paid", email: "[REDACTED]" }, headers: {}, query: {} };
const ctx = { runId: "run_1", destination: "crm", attempt: 1 };

test("the default export reshapes $trigger for a destination; ctx carries the run, destination and attempt", async () => {
  const source = "export default ($trigger, ctx) => ({ body: { id: $trigger.body.id, to: ctx.destination, n: ctx.attempt, run: ctx.runId }, headers: { 'X-Kind': $trigger.body.type } })";
  expect(await runTransform(pool, { source, trigger, ctx })).toEqual({ ok: true, result: { body: { id: "evt_1", to: "crm", n: 1, run: "run_1" }, headers: { "X-Kind": "order.paid" } } });
  expect(await runTransform(pool, { source: "export default async (t) => ({ body: t.body.id })", trigger, ctx })).toEqual({ ok: true, result: { body: "evt_1", headers: {} } });
});

test("null skips the destination", async () => {
  expect(await runTransform(pool, { source: "export default (t) => t.body.type === 'order.paid' ? null : { body: 1 }", trigger, ctx })).toEqual({ ok: true, result: null });
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
