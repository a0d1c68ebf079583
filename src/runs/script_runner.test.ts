import { afterAll, expect, test } from "bun:test";
import type { ClaimedRun } from "../records/run.ts";
import { ScriptPool } from "./script/pool.ts";
import { scriptRunner } from "./script_runner.ts";
import { RunAborted, type RunContext } from "./types.ts";

const pool = new ScriptPool({ size: 2, killGraceMs: 100 });
afterAll(() => pool.close());
const runner = scriptRunner(pool, { memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024 });

const run: ClaimedRun = {
  id: "0190-script-run",
  triggerId: "t1",
  requestId: "req-1",
  status: "running",
  trigger: { body: { amount: 120, items: [1, 2, 3] }, headers: { "x-a": "1" } },
  result: null,
  attempts: 0,
  error: null,
  createdAt: new Date().toISOString(),
  finishedAt: null,
};
const ctx = (signal = new AbortController().signal): RunContext => ({ signal, recordAttempt: async () => true });
const script = (source: string, timeoutMs = 300) => ({ kind: "script" as const, source, timeoutMs });
const text = (body: unknown) => (typeof body === "string" ? body : new TextDecoder().decode(body as Uint8Array));

test("the default export gets $trigger and { runId }; its {status, headers, body} is the answer", async () => {
  const outcome = await runner(
    script(
      "export default ($trigger, ctx) => ({ status: 202, headers: { 'X-Total': String($trigger.body.amount) }, body: { run: ctx.runId, n: $trigger.body.items.length } })",
    ),
    run,
    ctx(),
  );
  expect(outcome.status).toBe("succeeded");
  expect(outcome.answer).toEqual({
    status: 202,
    headers: { "X-Total": "120", "Content-Type": "application/json" },
    body: JSON.stringify({ run: run.id, n: 3 }),
  });
  expect(outcome.result).toMatchObject({ status: 202, value: { status: 202, body: { run: run.id, n: 3 } } });
});

test("async scripts and console output", async () => {
  const outcome = await runner(
    script("export default async ($t) => { console.log('amount', $t.body.amount); await Promise.resolve(); return { body: 'ok' } }"),
    run,
    ctx(),
  );
  expect(outcome.status).toBe("succeeded");
  expect(text(outcome.answer?.body)).toBe("ok");
  expect((outcome.result as any).logs).toEqual(["log: amount 120"]);
});

test("a script that throws fails the run with its message", async () => {
  const outcome = await runner(script("export default () => { throw new TypeError('amount missing') }"), run, ctx());
  expect(outcome).toMatchObject({ status: "failed", error: "the script threw TypeError: amount missing", answer: null, failureStatus: 500 });
  const rejected = await runner(script("export default async () => { throw new Error('later') }"), run, ctx());
  expect(rejected.error).toBe("the script threw Error: later");
});

test("syntax errors and a missing default export fail the run", async () => {
  expect((await runner(script("export default () => {"), run, ctx())).error).toContain("SyntaxError");
  expect((await runner(script("export const x = 1"), run, ctx())).error).toContain("export default");
});

test("while(true){} costs no more than its deadline (QuickJS interrupt), and the process is reused", async () => {
  const before = pool.processes;
  const started = performance.now();
  const outcome = await runner(script("export default () => { while (true) {} }", 200), run, ctx());
  const elapsed = performance.now() - started;
  expect(outcome).toMatchObject({ status: "failed", error: "the script ran past its 200 ms deadline" });
  expect(elapsed).toBeGreaterThanOrEqual(195);
  // The interrupt, not the SIGKILL backstop, ended it: the same process is reused. The time bound
  // is loose on purpose (a busy 2-core CI machine); it only proves the loop did not run on.
  expect(elapsed).toBeLessThan(200 + 1000);
  expect(pool.processes).toBe(before);
});

test("a long built-in call QuickJS cannot interrupt is stopped by SIGKILL; the process is replaced", async () => {
  const started = performance.now();
  const outcome = await runner(script("export default () => { for (;;) Array(3e4).fill(1).sort() }", 200), run, ctx());
  const elapsed = performance.now() - started;
  expect(outcome.status).toBe("failed");
  expect(outcome.error).toContain("ran past its 200 ms deadline");
  expect(elapsed).toBeLessThan(200 + 100 + 1500);
  const next = await runner(script("export default () => 'alive'"), run, ctx());
  expect(text(next.answer?.body)).toBe("alive");
});

test("the memory cap and the stack limit end a script cleanly", async () => {
  const memory = await runner(script("export default () => 'x'.repeat(1e8)"), run, ctx());
  expect(memory).toMatchObject({ status: "failed" });
  expect(memory.error).toContain("out of memory");
  const grow = await runner(script("export default () => { const a = []; for (;;) a.push({ i: a.length, s: 'y'.repeat(64) }) }", 5000), run, ctx());
  expect(grow.error).toContain("out of memory");
  const deep = await runner(script("export default function f(n = 0) { return f(n + 1) + 1 }"), run, ctx());
  expect(deep.error).toContain("stack");
  expect(text((await runner(script("export default () => 1 + 1"), run, ctx())).answer?.body)).toBe("2");
});

test("a promise that never settles fails at once (scripts have no timers)", async () => {
  const outcome = await runner(script("export default () => new Promise(() => {})"), run, ctx());
  expect(outcome.error).toContain("never settled");
});

test("an invalid response shape fails the run", async () => {
  const outcome = await runner(script("export default () => ({ status: 42 })"), run, ctx());
  expect(outcome.status).toBe("failed");
  expect(outcome.error).toContain("invalid response");
});

test("scripts do not see each other: globals set by one run are gone in the next", async () => {
  await runner(script("export default () => { globalThis.leak = 'secret'; return 1 }"), run, ctx());
  const outcome = await runner(script("export default () => typeof globalThis.leak"), run, ctx());
  expect(text(outcome.answer?.body)).toBe("undefined");
});

test("runs beyond the pool size wait for a free process", async () => {
  const started = performance.now();
  const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => runner(script(`export default () => ${i}`), run, ctx())));
  expect(outcomes.map((o) => text(o.answer?.body))).toEqual(["0", "1", "2", "3", "4"]);
  expect(pool.processes).toBeLessThanOrEqual(2);
  expect(performance.now() - started).toBeLessThan(5000);
});

test("stopping the server kills a running script and gives the run back", async () => {
  const controller = new AbortController();
  const running = runner(script("export default () => { while (true) {} }", 5000), run, ctx(controller.signal));
  await Bun.sleep(150);
  controller.abort();
  await expect(running).rejects.toBeInstanceOf(RunAborted);
});

test("without timeoutMs a script has 1000 ms", async () => {
  const outcome = await runner({ kind: "script", source: "export default () => { while (true) {} }" }, run, ctx());
  expect(outcome).toMatchObject({ status: "failed", error: "the script ran past its 1000 ms deadline", failureStatus: 500 });
});
