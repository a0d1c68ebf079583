import { afterAll, expect, test } from "bun:test";
import { triggerRecord } from "../../test/support/ingest.ts";
import { CheckPool, spawnCheckWorker } from "./pool.ts";
import { pooledChecks } from "./pooled.ts";
import { ExactNumber, parseJson } from "../json/index.ts";

const pools: CheckPool[] = [];
afterAll(() => pools.forEach((p) => p.close()));
const pool = (options: ConstructorParameters<typeof CheckPool>[0]) => {
  const p = new CheckPool(options);
  pools.push(p);
  return p;
};

const filtered = (id: string, expression: string) => triggerRecord({ id, filter: { enabled: true, mode: "include", expression } });

/** A pool whose workers' jobs are counted by op. */
function countingPool(size: number) {
  const jobs: string[] = [];
  const p = pool({
    size,
    spawn: () => {
      const worker = spawnCheckWorker();
      const post = worker.postMessage.bind(worker);
      worker.postMessage = ((job: { op: string }) => (jobs.push(job.op), post(job))) as Worker["postMessage"];
      return worker;
    },
  });
  return { p, jobs };
}

test("checks needing the sandbox evaluate in a worker; regex-free filters, key queries and known field names do not", async () => {
  const { p, jobs } = countingPool(2);
  const checks = pooledChecks(p)(
    triggerRecord({
      filter: { enabled: true, mode: "include", expression: '$.type == "paid"' },
      redaction: { enabled: true, patterns: ["^email$"] },
      dedup: { strategy: "expression", expression: "$.id" },
    }),
  );
  expect(await checks.passes!({ type: "paid" })).toBe(true);
  expect(await checks.passes!({ type: "refund" })).toBe(false);
  expect(await checks.select!({ id: 7 })).toEqual([7]);
  expect(jobs).toEqual([]);
  // New field names are classified by the worker (the patterns are user regexes), once.
  expect(await checks.redact!({ email: "a@b.c", keep: 1 })).toEqual({ email: "[REDACTED]", keep: 1 });
  expect(jobs).toEqual(["classify"]);
  expect(await checks.redact!({ keep: 2, email: "d@e.f" })).toEqual({ keep: 2, email: "[REDACTED]" });
  expect(await checks.redact!({ Email: "x", emails: "y" })).toEqual({ Email: "[REDACTED]", emails: "y" });
  expect(jobs).toEqual(["classify", "classify"]);
  // A literal I-Regexp runs on the request thread's linear engine; a pattern read from the body is a user regex.
  expect(await pooledChecks(p)(filtered("literal", 'match($.type, "pa.*")')).passes!({ type: "paid" })).toBe(true);
  expect(jobs).toEqual(["classify", "classify"]);
  const regex = pooledChecks(p)(filtered("regex", "match($.type, $.pattern)"));
  expect(await regex.passes!({ type: "paid", pattern: "pa.*" })).toBe(true);
  expect(jobs).toEqual(["classify", "classify", "passes"]);
});

test("a deadline blown in a worker fails that evaluation with a sandbox error, and the worker goes on", async () => {
  const compile = pooledChecks(pool({ size: 1 }));
  const hostile = compile(filtered("hostile", "match($.s, $.p)"));
  const error = await Promise.resolve(hostile.passes!({ s: "a".repeat(40), p: "(a+)+b" })).catch((e) => e);
  expect(String(error.code)).toBe("sandbox_timeout");
  expect(await compile(filtered("fine", "$.ok == true")).passes!({ ok: true })).toBe(true);
});

test("one trigger never holds every worker: while it blows its deadline, another trigger is answered at once", async () => {
  const p = pool({ size: 2 });
  const compile = pooledChecks(p);
  const hostile = compile(filtered("hostile", "match($.s, $.p)"));
  // A regex, so it is evaluated in a worker too (regex-free filters run on the request thread).
  const fine = compile(filtered("fine", "match($.name, $.p)"));
  const attacks = Array.from({ length: 12 }, () => Promise.resolve(hostile.passes!({ s: "a".repeat(40), p: "(a+)+b" })).catch(() => "failed"));
  const stats = () => p.snapshot().get("hostile")!;
  // Its first failure contains the trigger (before it, with no other trigger waiting, it may use both workers).
  for (let i = 0; i < 400 && stats().failed === 0; i++) await Bun.sleep(5);
  expect(stats().failed).toBeGreaterThan(0);
  expect(stats().running).toBeLessThanOrEqual(1);
  expect(stats().waiting).toBeGreaterThan(0);
  expect(await fine.passes!({ name: "ok", p: "^ok$" })).toBe(true);
  // Answered while the hostile trigger still had evaluations queued, not behind them.
  expect(stats().failed).toBeLessThan(12);
  expect(stats().waiting + stats().running).toBeGreaterThan(0);
  await Promise.all(attacks);
  expect(stats()).toMatchObject({ failed: 12, running: 0, waiting: 0 });
});

test("busy is not hostile: a healthy trigger's evaluations all wait for a worker, however many arrive at once", async () => {
  const p = pool({ size: 1, maxWaiting: 2 });
  // A pattern read from the body: a user regex, so every evaluation needs the worker.
  const busy = pooledChecks(p)(filtered("busy", "match($.s, $.p)"));
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) => Promise.resolve(busy.passes!({ s: `a${i}`, p: "a[0-9]+" })).catch((e) => e.code)));
  expect(results).toEqual(Array(200).fill(true));
  expect(p.snapshot().get("busy")).toMatchObject({ refused: 0, overloaded: 0, failed: 0, waiting: 0, running: 0 });
});

test("a contained trigger (its checks failed lately) past its waiting bound is refused at once, and counted", async () => {
  const p = pool({ size: 2, maxWaiting: 2 });
  const hostile = pooledChecks(p)(filtered("flood", "match($.s, $.p)"));
  const attack = () => Promise.resolve(hostile.passes!({ s: "a".repeat(40), p: "(a+)+b" })).catch((e) => e.code);
  expect(await attack()).toBe("sandbox_timeout");
  const results = await Promise.all(Array.from({ length: 8 }, attack));
  const refused = results.filter((r) => r === "sandbox_busy").length;
  expect(refused).toBeGreaterThanOrEqual(5);
  expect(p.snapshot().get("flood")!.refused).toBe(refused);
});

test("past the server-wide waiting bound, evaluations are given up as overload (503), whatever their trigger", async () => {
  const p = pool({ size: 1, maxWaitingTotal: 3 });
  const compile = pooledChecks(p);
  const checks = ["a", "b"].map((id) => compile(filtered(id, "match($.s, $.p)")));
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) => Promise.resolve(checks[i % 2].passes!({ s: "x", p: "x" })).catch((e) => e.code)));
  expect(results.filter((r) => r === "overloaded").length).toBeGreaterThan(0);
  expect(results.filter((r) => r === true).length).toBeGreaterThanOrEqual(3);
  expect(results.every((r) => r === true || r === "overloaded")).toBe(true);
  const stats = p.snapshot();
  expect(stats.get("a")!.overloaded + stats.get("b")!.overloaded).toBe(results.filter((r) => r === "overloaded").length);
  expect(stats.get("a")!.failed + stats.get("b")!.failed).toBe(0);
});

test("a worker that does not answer by the hard bound is replaced; its evaluation fails, the next one works", async () => {
  let spawned = 0;
  const silent = () => {
    spawned++;
    const fake = { onmessage: null as ((e: MessageEvent) => void) | null, onerror: null, terminate() {}, postMessage() {}, unref() {} };
    queueMicrotask(() => fake.onmessage?.({ data: { ready: true } } as MessageEvent));
    return fake as unknown as Worker;
  };
  const p = pool({ size: 1, hardTimeoutMs: 50, spawn: silent });
  const error = (await p.run("t", "k", triggerRecord(), "passes", {}).catch((e) => e)) as { code: string; message: string };
  expect(error.code).toBe("sandbox_timeout");
  expect(error.message).toContain("did not answer within 50 ms");
  expect(spawned).toBe(2);
});

test("an evaluation that finds no worker ready within maxWaitMs is given up as overload instead of hanging; the trigger is not contained", async () => {
  const never = () => ({ onmessage: null, onerror: null, terminate() {}, postMessage() {}, unref() {} }) as unknown as Worker;
  const p = pool({ size: 1, maxWaitMs: 50, spawn: never });
  const error = (await p.run("t", "k", triggerRecord(), "passes", {}).catch((e) => e)) as { code: string; message: string };
  expect(error.code).toBe("overloaded");
  expect(error.message).toContain("no sandbox worker was free within 50 ms");
  expect(p.snapshot().get("t")).toMatchObject({ waiting: 0, failed: 0, overloaded: 1 });
});

test("a burst of bodies with the same new field names asks the worker to classify them once", async () => {
  const { p, jobs } = countingPool(1);
  const checks = pooledChecks(p)(triggerRecord({ id: "burst", redaction: { enabled: true, patterns: ["^email$"] } }));
  const redacted = await Promise.all(Array.from({ length: 20 }, (_, i) => checks.redact!({ email: `u${i}@example.com`, n: i })));
  expect(redacted[7]).toEqual({ email: "[REDACTED]", n: 7 });
  expect(jobs).toEqual(["classify"]);
});

test("a body with numbers a double cannot hold crosses to a worker with them, and the values it selects come back with them", async () => {
  const { p, jobs } = countingPool(1);
  const checks = pooledChecks(p)(
    triggerRecord({
      id: "exact",
      // Both need the worker: a pattern read from the body, a query from the root inside a filter.
      filter: { enabled: true, mode: "include", expression: "match($.kind, $.p) && $.id == 9007199254740993" },
      dedup: { strategy: "expression", expression: "$.items[?@.id == $.id].id" },
    }),
  );
  const body = parseJson('{"kind":"paid","p":"pa.*","id":9007199254740993,"items":[{"id":9007199254740992},{"id":9007199254740993}]}');
  expect(await checks.passes!(body)).toBe(true);
  expect(await checks.passes!(parseJson('{"kind":"paid","p":"pa.*","id":9007199254740992}'))).toBe(false);
  expect(await checks.select!(body)).toEqual([new ExactNumber("9007199254740993")]);
  expect(new Set(jobs)).toEqual(new Set(["passes", "select"]));
});
