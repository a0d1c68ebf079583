import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../store/sqlite/sqlite_store.ts";
import type { ClaimedRun, RunRecord } from "../records/run.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { triggerRecord } from "../../test/support/ingest.ts";
import { activity, run } from "../../test/store/contract_fixtures.ts";
import { waitFor } from "../../test/support/wait.ts";
import { RunQueue, type ExecuteRun } from "./queue.ts";
import { RunAborted, type RunOutcome } from "./types.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-queue-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

// One destination allowed more runs at once than the queue has slots: these tests are about the queue's own bounds.
const trigger = (mode: "immediate" | "workflow" = "immediate", concurrency = 64): TriggerRecord =>
  triggerRecord({
    id: "t1",
    token: "tok",
    name: "t1",
    response: { mode, timeoutMs: 10_000 },
    workflow: { kind: "http", url: "http://127.0.0.1:9/hook" },
    destinations: [{ name: "default", workflow: { kind: "http", url: "http://127.0.0.1:9/hook" }, concurrency }],
  });

const ok = (run: ClaimedRun): RunOutcome => ({
  status: "succeeded",
  attempts: 1,
  error: null,
  result: { ran: run.id },
  answer: { status: 200, headers: {}, body: run.id },
});

/** An executor whose runs wait for `gate`, counting how many run at once (`counts.most` the most). */
function gatedRuns() {
  const gate = Promise.withResolvers<void>();
  const counts = { running: 0, most: 0 };
  const execute: ExecuteRun = async (_t, run) => {
    counts.most = Math.max(counts.most, ++counts.running);
    await gate.promise;
    counts.running--;
    return ok(run);
  };
  return { gate, counts, execute };
}

/** Commits a queued run of `t`'s `destination` as the pipeline does, and tells the queue. */
async function commitTo(store: SqliteStore, queue: RunQueue, t: TriggerRecord, destination: string): Promise<RunRecord> {
  const now = new Date();
  const queued = { ...run(t.id, now), status: "queued" as const, attempts: 0, finishedAt: null, destination };
  await store.commitIngest({ dedup: null, run: queued, activity: activity(t.id, now, "run", queued.id) });
  queue.onCommitted(t, queued, null);
  return queued;
}

async function setup(
  execute: ExecuteRun,
  options: { concurrency?: number; mode?: "immediate" | "workflow"; pollMs?: number; directLimit?: number; destinationConcurrency?: number } = {},
) {
  const store = new SqliteStore(join(dir, `q-${n++}.sqlite`));
  const t = trigger(options.mode, options.destinationConcurrency);
  const queue = new RunQueue({
    store,
    triggers: { get: () => t },
    execute,
    concurrency: options.concurrency ?? 3,
    pollMs: options.pollMs ?? 50,
    directLimit: options.directLimit,
  });
  /**
   * Commits a run the way the pipeline does, and tells the queue: queued, with, for a workflow
   * response mode trigger, a direct slot of this queue's (`directSlotFor`); `direct` says whether it got one.
   */
  const commit = async (
    tell = true,
    payload: unknown = { n: 1 },
    as: TriggerRecord = t,
    extra: Partial<RunRecord> = {},
  ): Promise<RunRecord & { direct: boolean }> => {
    const now = new Date();
    const slot = queue.directSlotFor(as);
    const run = {
      id: Bun.randomUUIDv7(),
      triggerId: t.id,
      requestId: crypto.randomUUID(),
      status: "queued" as const,
      trigger: payload,
      result: null,
      attempts: 0,
      error: null,
      createdAt: now.toISOString(),
      finishedAt: null,
      ...extra,
    };
    await store.commitIngest({
      dedup: null,
      run,
      activity: { id: Bun.randomUUIDv7(), triggerId: t.id, at: now.toISOString(), requestId: run.requestId, outcome: "run", runId: run.id, detail: null },
    });
    if (tell) queue.onCommitted(as, run, slot);
    return { ...run, direct: slot !== null };
  };
  const statuses = async () => (await store.listRuns({ limit: 500, includeTrigger: false })).map((r) => r.status);
  return { store, queue, commit, statuses, trigger: t };
}

test("bounded concurrency: never more than `concurrency` at once; every run executes exactly once", async () => {
  let current = 0;
  let peak = 0;
  const executed: string[] = [];
  const { queue, commit, statuses, store } = await setup(async (_t, run) => {
    current++;
    peak = Math.max(peak, current);
    executed.push(run.id);
    await Bun.sleep(20);
    current--;
    return ok(run);
  });
  await queue.start();
  // Two destinations: one alone never holds the last slot (see the test of that below).
  const runs = await Promise.all(Array.from({ length: 30 }, (_, i) => commit(true, { n: 1 }, undefined, { destination: i % 2 ? "other" : "default" })));
  await waitFor("every run succeeded", async () => (await statuses()).every((s) => s === "succeeded"));
  expect(peak).toBe(3);
  expect(executed.sort()).toEqual(runs.map((r) => r.id).sort());
  const one = await store.getRun(runs[0].id);
  expect(one).toMatchObject({ status: "succeeded", attempts: 1, error: null, result: { ran: runs[0].id } });
  expect(one?.finishedAt).not.toBeNull();
  await queue.stop(1000);
  await store.close();
});

test("runs committed without telling the queue (left by a previous process) are found by polling", async () => {
  const executed: string[] = [];
  const { queue, commit, statuses, store } = await setup(async (_t, run) => {
    executed.push(run.id);
    return ok(run);
  });
  const early = await commit(false);
  await queue.start();
  const later = await commit(false);
  await waitFor("every run succeeded", async () => (await statuses()).every((s) => s === "succeeded"));
  expect(executed.sort()).toEqual([early.id, later.id].sort());
  await queue.stop(1000);
  await store.close();
});

test("at start, runs a crashed process left running are requeued and executed (at-least-once)", async () => {
  const { queue, commit, statuses, store } = await setup(async (_t, run) => ok(run));
  const run = await commit(false);
  await store.claimRun(run.id, "crashed-process", 60_000, new Date());
  expect(await statuses()).toEqual(["running"]);
  await queue.start();
  await waitFor("the requeued run succeeded", async () => (await statuses())[0] === "succeeded");
  await queue.stop(1000);
  await store.close();
});

test("a failed outcome and a throwing runner are recorded as failed runs", async () => {
  let calls = 0;
  const { queue, commit, store } = await setup(async (_t, run) => {
    if (calls++ === 0) return { status: "failed", attempts: 3, error: "the target answered 500", result: { status: 500 }, answer: null };
    throw new Error("bug in a runner");
  });
  await queue.start();
  const a = await commit();
  await waitFor("the failed outcome recorded", async () => (await store.getRun(a.id))?.status === "failed");
  const b = await commit();
  await waitFor("the throwing runner recorded", async () => (await store.getRun(b.id))?.status === "failed");
  expect(await store.getRun(a.id)).toMatchObject({ attempts: 3, error: "the target answered 500", result: { status: 500 } });
  expect((await store.getRun(b.id))?.error).toContain("internal error: bug in a runner");
  await queue.stop(1000);
  await store.close();
});

test("workflow response mode: the run starts at once even when the queue is saturated, and is awaited", async () => {
  const gate = Promise.withResolvers<void>();
  const {
    queue,
    commit,
    store,
    trigger: t,
  } = await setup(
    async (_t, run) => {
      if ((run.trigger as any).n === 1 && _t.response.mode === "immediate") await gate.promise;
      return ok(run);
    },
    { concurrency: 1 },
  );
  await queue.start();
  await commit(); // holds the only slot
  const urgent = await commit(true, { n: 2 }, { ...t, response: { mode: "workflow", timeoutMs: 1000 } });
  expect(urgent.direct).toBe(true);
  const outcome = await queue.waitFor(urgent.id, 2000);
  expect(outcome?.answer?.body).toBe(urgent.id);
  expect((await store.getRun(urgent.id))?.status).toBe("succeeded");
  gate.resolve();
  await queue.stop(1000);
  await store.close();
});

test("workflow response mode starts at most directLimit runs at once; past it a caller's run waits in the queue, and is still awaited", async () => {
  const { gate, counts, execute } = gatedRuns();
  const { queue, commit, store } = await setup(execute, { concurrency: 1, mode: "workflow", directLimit: 2 });
  await queue.start();
  const runs = [await commit(), await commit(), await commit(), await commit()];
  // Two in direct slots and one in the queue's one slot (which of them a poll took first varies).
  expect(runs.filter((r) => r.direct).length).toBeGreaterThanOrEqual(2);
  await waitFor("three runs running", () => counts.running === 3);
  await Bun.sleep(100);
  expect(counts.running).toBe(3);
  gate.resolve();
  const outcomes = await Promise.all(runs.map((r) => queue.waitFor(r.id, 5000)));
  expect(outcomes.map((o) => o?.answer?.body)).toEqual(runs.map((r) => r.id));
  expect(counts.most).toBe(3);
  // Once they ended, the next caller starts at once again.
  expect((await commit()).direct).toBe(true);
  // Its slot frees once the runner returns, or once its claim comes back empty when a poll took the run first.
  await waitFor("no run running, no slot held", () => counts.running === 0 && queue.directInUse === 0);
  // A slot is taken when it is given, before the commit: callers of one burst cannot all pass.
  const t = trigger("workflow");
  const leases = [queue.directSlotFor(t), queue.directSlotFor(t), queue.directSlotFor(t)];
  expect(leases.map((lease) => lease !== null)).toEqual([true, true, false]);
  leases[0]!.release(); // a duplicate, say: nothing was committed with it
  leases[0]!.release(); // a second release frees nothing more
  const again = queue.directSlotFor(t);
  expect(again).not.toBeNull();
  expect(queue.directSlotFor(t)).toBeNull();
  again!.release();
  leases[1]!.release();
  await queue.stop(1000);
  await store.close();
});

test("a waiting caller's run keeps its destination's concurrency: past it, it waits queued and is still awaited", async () => {
  const { gate, counts, execute } = gatedRuns();
  const { queue, commit, store } = await setup(execute, { concurrency: 8, mode: "workflow", destinationConcurrency: 1 });
  await queue.start();
  const runs = [await commit(), await commit()];
  // Both got a direct slot, but the destination allows one run at a time.
  expect(runs.map((r) => r.direct)).toEqual([true, true]);
  await waitFor("one run running", () => counts.running === 1);
  await Bun.sleep(150);
  expect(counts.running).toBe(1);
  expect((await store.getRun(runs[1].id))?.status).toBe("queued");
  gate.resolve();
  const outcomes = await Promise.all(runs.map((r) => queue.waitFor(r.id, 5000)));
  expect(outcomes.map((o) => o?.answer?.body)).toEqual(runs.map((r) => r.id));
  expect(counts.most).toBe(1);
  await queue.stop(1000);
  await store.close();
});

test("waitFor times out with null while the run goes on and is recorded", async () => {
  const {
    queue,
    commit,
    store,
    trigger: t,
  } = await setup(async (_t, run) => {
    await Bun.sleep(300);
    return ok(run);
  });
  await queue.start();
  const run = await commit(true, { n: 1 }, { ...t, response: { mode: "workflow", timeoutMs: 100 } });
  expect(await queue.waitFor(run.id, 100)).toBeNull();
  await waitFor("the run recorded succeeded", async () => (await store.getRun(run.id))?.status === "succeeded");
  await queue.stop(1000);
  await store.close();
});

test("no run executes twice when commits, immediate starts and polls race", async () => {
  const counts = new Map<string, number>();
  const { queue, commit, statuses, store } = await setup(
    async (_t, run) => {
      counts.set(run.id, (counts.get(run.id) ?? 0) + 1);
      await Bun.sleep(Math.random() * 5);
      return ok(run);
    },
    { concurrency: 4 },
  );
  await queue.start();
  const runs = await Promise.all(Array.from({ length: 60 }, (_, i) => commit(i % 3 !== 0)));
  await waitFor("every run succeeded", async () => (await statuses()).every((s) => s === "succeeded"));
  expect(counts.size).toBe(runs.length);
  expect([...counts.values()].every((c) => c === 1)).toBe(true);
  await queue.stop(1000);
  await store.close();
});

test("graceful stop: running runs finish within the drain time; the rest go back to the queue", async () => {
  const { queue, commit, store } = await setup(async (_t, run, context) => {
    const ms = (run.trigger as { ms: number }).ms;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      context.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new RunAborted());
      });
    });
    return ok(run);
  });
  await queue.start();
  const slow = await commit(true, { ms: 10_000 });
  const quick = await commit(true, { ms: 50 });
  await waitFor("both runs in flight", () => queue.inFlight === 2);
  const started = performance.now();
  await queue.stop(300);
  expect(performance.now() - started).toBeLessThan(2000);
  expect((await store.getRun(quick.id))?.status).toBe("succeeded");
  expect((await store.getRun(slow.id))?.status).toBe("queued");
  await store.close();
});

test("ordered runs: the next run of a key starts as soon as the run before it ends, not at the next poll", async () => {
  const gates = new Map<string, PromiseWithResolvers<void>>();
  const started: string[] = [];
  const { queue, commit, store } = await setup(
    async (_t, run) => {
      const label = (run.trigger as { label: string }).label;
      started.push(label);
      const gate = Promise.withResolvers<void>();
      gates.set(label, gate);
      await gate.promise;
      return ok(run);
    },
    { pollMs: 3_600_000 },
  );
  await queue.start();
  const first = await commit(true, { label: "k1" }, undefined, { orderingKey: '"k"' });
  await waitFor("k1 started", () => started.includes("k1"));
  const second = await commit(true, { label: "k2" }, undefined, { orderingKey: '"k"' });
  await commit(true, { label: "free" });
  await waitFor("the unordered run started", () => started.includes("free"));
  expect(started).toEqual(["k1", "free"]);
  expect((await store.getRun(second.id))?.status).toBe("queued");
  gates.get("k1")!.resolve();
  await waitFor("k2 started after k1 ended", () => started.includes("k2"));
  expect((await store.getRun(first.id))?.status).toBe("succeeded");
  gates.get("k2")!.resolve();
  gates.get("free")!.resolve();
  await queue.stop(1000);
  await store.close();
});

test("a run given back when the server stops mid-retry is resumed by the next start with the attempts and result it recorded", async () => {
  const seen: ClaimedRun[] = [];
  const execute: ExecuteRun = async (_t, run, context) => {
    seen.push(run);
    if (seen.length > 1) return ok(run);
    context.recordAttempt(1, { attempts: [{ status: 503 }] });
    return new Promise<RunOutcome>((_, reject) => context.signal.addEventListener("abort", () => reject(new RunAborted())));
  };
  const { queue, commit, store, trigger: t } = await setup(execute);
  await queue.start();
  const run = await commit();
  await waitFor("the first attempt recorded", async () => (await store.getRun(run.id))?.attempts === 1);
  await queue.stop(0);
  expect(await store.getRun(run.id)).toMatchObject({ status: "queued", attempts: 1, result: { attempts: [{ status: 503 }] } });
  const next = new RunQueue({ store, triggers: { get: () => t }, execute, concurrency: 1, pollMs: 50 });
  await next.start();
  await waitFor("the resumed run succeeded", async () => (await store.getRun(run.id))?.status === "succeeded");
  expect(seen.map((r) => [r.id, r.attempts])).toEqual([
    [run.id, 0],
    [run.id, 1],
  ]);
  expect(seen[1].result).toEqual({ attempts: [{ status: 503 }] });
  await next.stop(1000);
  await store.close();
});

test("a destination never runs more than its concurrency; while one destination's runs hang, another's run starts at once", async () => {
  const store = new SqliteStore(join(dir, `q-${n++}.sqlite`));
  const hungTrigger = triggerRecord({ id: "t-hung", token: "tok-hung", workflow: { kind: "http", url: "http://127.0.0.1:9/hang" } });
  const fine = triggerRecord({
    id: "t-fine",
    token: "tok-fine",
    workflow: { kind: "none" },
    destinations: [
      { name: "fast", workflow: { kind: "http", url: "http://127.0.0.1:9/fast" } },
      { name: "capped", workflow: { kind: "http", url: "http://127.0.0.1:9/capped" }, concurrency: 1 },
    ],
  });
  const byId = new Map([hungTrigger, fine].map((t) => [t.id, t]));
  const running = new Map<string, number>();
  const peak = new Map<string, number>();
  const started: Array<{ key: string; at: number }> = [];
  let release!: () => void;
  const hang = new Promise<void>((resolve) => (release = resolve));
  const execute: ExecuteRun = async (t, run) => {
    const key = `${t.id}/${run.destination}`;
    running.set(key, (running.get(key) ?? 0) + 1);
    peak.set(key, Math.max(peak.get(key) ?? 0, running.get(key)!));
    started.push({ key, at: performance.now() });
    if (t.id === "t-hung") await hang;
    else await Bun.sleep(5);
    running.set(key, running.get(key)! - 1);
    return ok(run);
  };
  const queue = new RunQueue({ store, triggers: { get: (id) => byId.get(id) }, execute, concurrency: 8, pollMs: 50 });
  await queue.start();
  const commit = (t: TriggerRecord, destination: string) => commitTo(store, queue, t, destination);
  try {
    // The workflow shorthand's one destination: 2 at once by default, however many pile up.
    for (let i = 0; i < 30; i++) await commit(hungTrigger, "default");
    await waitFor("the hung destination holds its two", async () => running.get("t-hung/default") === 2);
    const committedAt = performance.now();
    await commit(fine, "fast");
    await waitFor("the other destination's run ran", async () => started.some((s) => s.key === "t-fine/fast"));
    expect(started.find((s) => s.key === "t-fine/fast")!.at - committedAt).toBeLessThan(1000);
    for (let i = 0; i < 6; i++) await commit(fine, "capped");
    await waitFor("every capped run ran", async () => started.filter((s) => s.key === "t-fine/capped").length === 6);
    expect(peak.get("t-hung/default")).toBe(2);
    expect(peak.get("t-fine/capped")).toBe(1);
    const queued = (await store.listRuns({ triggerId: "t-hung", limit: 500, includeTrigger: false })).filter((r) => r.status === "queued");
    // Waiting for its turn spends no attempt.
    expect(queued.length).toBe(28);
    expect(queued.every((r) => r.attempts === 0)).toBe(true);
  } finally {
    release();
    await queue.stop(1000);
    await store.close();
  }
});

/** A trigger with a destination `hung` allowed 16 runs at once, and `fine` with the defaults. */
const hungBesideFine = (id: string): TriggerRecord =>
  triggerRecord({
    id,
    token: `tok-${id}`,
    workflow: { kind: "none" },
    destinations: [
      { name: "hung", workflow: { kind: "http", url: "http://127.0.0.1:9/hang" }, concurrency: 16 },
      { name: "fine", workflow: { kind: "http", url: "http://127.0.0.1:9/fine" } },
    ],
  });

test("a destination never holds every run slot, whatever its concurrency: one hanging leaves a slot for the others", async () => {
  const store = new SqliteStore(join(dir, `q-${n++}.sqlite`));
  const greedy = hungBesideFine("t-greedy");
  const running = new Map<string, number>();
  const started: string[] = [];
  let release!: () => void;
  const hang = new Promise<void>((resolve) => (release = resolve));
  const execute: ExecuteRun = async (_t, run) => {
    running.set(run.destination!, (running.get(run.destination!) ?? 0) + 1);
    started.push(run.destination!);
    if (run.destination === "hung") await hang;
    running.set(run.destination!, running.get(run.destination!)! - 1);
    return ok(run);
  };
  const queue = new RunQueue({ store, triggers: { get: () => greedy }, execute, concurrency: 4, pollMs: 50 });
  await queue.start();
  const commit = (destination: string) => commitTo(store, queue, greedy, destination);
  try {
    for (let i = 0; i < 10; i++) await commit("hung");
    // Three of the four slots (--run-concurrency − 1), not all four, though it may run 16.
    await waitFor("the hung destination holds three slots", async () => running.get("hung") === 3);
    await Bun.sleep(120);
    expect(running.get("hung")).toBe(3);
    await commit("fine");
    await waitFor("the other destination's run ran", async () => started.includes("fine"));
    // Once that slot is free again the hung destination still does not take it.
    await Bun.sleep(120);
    expect(running.get("hung")).toBe(3);
    expect(started.filter((d) => d === "hung")).toHaveLength(3);
  } finally {
    release();
    await queue.stop(1000);
    await store.close();
  }
});
