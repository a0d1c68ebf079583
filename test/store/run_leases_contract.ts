import { expect, test } from "bun:test";
import { activity, run, trigger, type OpenStore } from "./contract_fixtures.ts";

/** RunLeases: runs are claimed once, under a lease only their holder may use; ordering keys hold runs back. */
export function runLeasesContract(open: OpenStore): void {
  test("a claimed run is running, held by its owner until the lease lapses", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t10"));
    const now = new Date();
    const r = { ...run("t10", now), status: "queued" as const, attempts: 0, finishedAt: null };
    await store.commitIngest({ dedup: null, run: r, activity: activity("t10", now, "run", r.id) });
    expect((await store.claimRun(r.id, "mine", 10_000, now))?.id).toBe(r.id);
    expect((await store.getRun(r.id))?.status).toBe("running");
    expect(await store.claimRuns("other", 5, 10_000, new Date(now.getTime() + 5_000))).toEqual([]);
    const done = { status: "succeeded" as const, result: null, error: null, attempts: 1, finishedAt: now.toISOString() };
    expect(await store.finishRun(r.id, "other", done)).toBe(false);
    expect(await store.finishRun(r.id, "mine", done)).toBe(true);
    await store.close();
  });

  test("a run reserved for the instance where its caller waits: only that instance claims it until the reservation ends", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-res"));
    const now = new Date();
    const queued = () => ({ ...run("t-res", now), status: "queued" as const, attempts: 0, finishedAt: null });
    const waited = queued();
    const fanned = { ...queued(), destination: "audit" };
    await store.commitIngest({
      dedup: null,
      run: waited,
      fanOut: [fanned],
      activity: activity("t-res", now, "run", waited.id),
      reservedFor: { owner: "a", untilMs: now.getTime() + 10_000 },
    });
    expect((await store.getRun(waited.id))?.status).toBe("queued");
    // Another instance's poll takes the fan-out (nobody waits for it), never the reserved run.
    expect((await store.claimRuns("b", 5, 60_000, now)).map((r) => r.id)).toEqual([fanned.id]);
    expect(await store.claimRun(waited.id, "b", 60_000, now)).toBeNull();
    // Its own instance claims it, by id or by a poll.
    const second = queued();
    await store.commitIngest({
      dedup: null,
      run: second,
      activity: activity("t-res", now, "run", second.id),
      reservedFor: { owner: "a", untilMs: now.getTime() + 10_000 },
    });
    expect((await store.claimRun(waited.id, "a", 60_000, now))?.id).toBe(waited.id);
    expect((await store.claimRuns("a", 5, 60_000, now)).map((r) => r.id)).toEqual([second.id]);
    // Past the reservation (its instance gone, or its caller gave up) any instance may claim it.
    const third = queued();
    await store.commitIngest({
      dedup: null,
      run: third,
      activity: activity("t-res", now, "run", third.id),
      reservedFor: { owner: "a", untilMs: now.getTime() + 10_000 },
    });
    expect(await store.claimRuns("b", 5, 60_000, new Date(now.getTime() + 9_999))).toEqual([]);
    expect((await store.claimRuns("b", 5, 60_000, new Date(now.getTime() + 10_001))).map((r) => r.id)).toEqual([third.id]);
    await store.close();
  });

  test("a run given back while its caller still waits stays reserved for its instance until then", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-back"));
    const now = new Date();
    const r = { ...run("t-back", now), status: "queued" as const, attempts: 0, finishedAt: null };
    await store.commitIngest({ dedup: null, run: r, activity: activity("t-back", now, "run", r.id) });
    expect((await store.claimRun(r.id, "a", 60_000, now))?.id).toBe(r.id);
    await store.releaseRuns("a", [r.id], now.getTime() + 5_000);
    expect((await store.getRun(r.id))?.status).toBe("queued");
    expect(await store.claimRuns("b", 5, 60_000, now)).toEqual([]);
    expect((await store.claimRuns("a", 5, 60_000, now)).map((x) => x.id)).toEqual([r.id]);
    // Given back without one (a graceful stop): any instance.
    await store.releaseRuns("a", [r.id]);
    expect((await store.claimRuns("b", 5, 60_000, now)).map((x) => x.id)).toEqual([r.id]);
    await store.close();
  });

  test("destinations: a claim takes runs in turn from each destination with runs waiting, never past a destination's limit", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-dest"));
    const now = new Date();
    const queued = async (destination: string) => {
      const r = { ...run("t-dest", now), status: "queued" as const, attempts: 0, finishedAt: null, destination };
      await store.commitIngest({ dedup: null, run: r, activity: activity("t-dest", now, "run", r.id) });
      return r;
    };
    const backlog = [];
    for (let i = 0; i < 6; i++) backlog.push(await queued("slow"));
    const fast = [await queued("fast"), await queued("fast")];
    const capped = await queued("capped");
    const limits = (_t: string, d: string) => (d === "slow" ? { concurrency: 2 } : d === "capped" ? { concurrency: 0 } : null);
    const first = await store.claimRuns("a", 8, 10_000, now, limits);
    // Two of slow's six (its limit), both of fast's; capped is at its limit (0) and keeps its run.
    expect(first.map((r) => r.destination).sort()).toEqual(["fast", "fast", "slow", "slow"]);
    expect(first.filter((r) => r.destination === "slow").map((r) => r.id)).toEqual(backlog.slice(0, 2).map((r) => r.id));
    // slow is full: another claim takes none of its runs, and the one-run claim refuses too.
    expect(await store.claimRuns("b", 8, 10_000, now, limits)).toEqual([]);
    expect(await store.claimRun(backlog[2].id, "b", 10_000, now, limits)).toBeNull();
    expect(await store.claimRun(capped.id, "b", 10_000, now, limits)).toBeNull();
    // One of slow's runs ends: one more of its runs may start.
    expect(
      await store.finishRun(first.find((r) => r.destination === "slow")!.id, "a", {
        status: "succeeded",
        result: null,
        error: null,
        attempts: 1,
        finishedAt: now.toISOString(),
      }),
    ).toBe(true);
    expect((await store.claimRuns("b", 8, 10_000, now, limits)).map((r) => r.id)).toEqual([backlog[2].id]);
    expect(fast.every((r) => first.some((c) => c.id === r.id))).toBe(true);
    expect((await store.getRun(capped.id))?.status).toBe("queued");
    await store.close();
  });

  test("runs: queued runs are claimed oldest first and once; finishing needs the lease", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t6"));
    const now = new Date();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = { ...run("t6", now), status: "queued" as const, attempts: 0, finishedAt: null };
      ids.push(r.id);
      await store.commitIngest({ dedup: null, run: r, activity: activity("t6", now, "run", r.id) });
    }
    // Two claimers at once: which one a shared store serves first is not fixed, but each run
    // goes to exactly one, and each gets the oldest of what it got first.
    const [first, second] = await Promise.all([store.claimRuns("a", 2, 60_000, now), store.claimRuns("b", 2, 60_000, now)]);
    expect([...first, ...second].map((r) => r.id).sort()).toEqual([...ids].sort());
    for (const claimed of [first, second]) expect(claimed.map((r) => r.id)).toEqual(ids.filter((id) => claimed.some((r) => r.id === id)));
    const [holder, other] = first.some((r) => r.id === ids[0]) ? ["a", "b"] : ["b", "a"];
    const oldest = [...first, ...second].find((r) => r.id === ids[0])!;
    expect(oldest.status).toBe("running");
    expect(oldest.trigger).toEqual({ body: { n: 1 } });
    expect(await store.claimRun(ids[0], other, 60_000, now)).toBeNull();
    expect(await store.claimRuns("c", 5, 60_000, now)).toEqual([]);

    expect(await store.recordAttempt(ids[0], other, 1, { attempts: [{ status: 503 }] })).toBe(false);
    expect(await store.recordAttempt(ids[0], holder, 1, { attempts: [{ status: 503 }] })).toBe(true);
    expect((await store.getRun(ids[0]))?.attempts).toBe(1);
    const done = { status: "succeeded" as const, result: { status: 200 }, error: null, attempts: 2, finishedAt: new Date().toISOString() };
    expect(await store.finishRun(ids[0], other, done)).toBe(false);
    expect(await store.finishRun(ids[0], holder, done)).toBe(true);
    expect(await store.finishRun(ids[0], holder, done)).toBe(false);
    const finished = await store.getRun(ids[0]);
    expect(finished).toMatchObject({ status: "succeeded", attempts: 2, result: { status: 200 }, error: null, finishedAt: done.finishedAt });
    await store.close();
  });

  test("runs: a lapsed lease is claimed again; released and abandoned runs are queued again", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t7"));
    const now = new Date();
    const r = { ...run("t7", now), status: "queued" as const, attempts: 0, finishedAt: null };
    await store.commitIngest({ dedup: null, run: r, activity: activity("t7", now, "run", r.id) });
    expect(await store.claimRun(r.id, "a", 1_000, now)).not.toBeNull();
    await store.renewLeases("a", [r.id], 10_000, now);
    expect(await store.claimRuns("b", 1, 1_000, new Date(now.getTime() + 5_000))).toEqual([]);
    const taken = await store.claimRuns("b", 1, 1_000, new Date(now.getTime() + 11_000));
    expect(taken.map((x) => x.id)).toEqual([r.id]);
    expect(await store.finishRun(r.id, "a", { status: "failed", result: null, error: "late", attempts: 1, finishedAt: now.toISOString() })).toBe(false);
    await store.releaseRuns("b", [r.id]);
    expect((await store.getRun(r.id))?.status).toBe("queued");
    await store.claimRun(r.id, "c", 60_000, now);
    expect(await store.requeueAbandonedRuns(new Date(now.getTime() + 120_000))).toBe(1);
    expect((await store.getRun(r.id))?.status).toBe("queued");
    await store.close();
  });

  test("ordering: one run of a key at a time, in acceptance order; other keys and unordered runs go on; live runs before replays", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-ord"));
    const now = new Date();
    const queued = async (orderingKey: string | null, replayOf: string | null = null) => {
      const r = { ...run("t-ord", now), status: "queued" as const, attempts: 0, finishedAt: null, orderingKey, replayOf };
      await store.commitIngest({ dedup: null, run: r, activity: activity("t-ord", now, "run", r.id) });
      return r.id;
    };
    const replayed = await queued(null, "run-old");
    const a1 = await queued("A");
    const a2 = await queued("A");
    const b1 = await queued("B");
    const free = await queued(null);
    // Live runs are claimed before replayed ones; A's second waits for its first; B and the unordered run go on.
    expect((await store.claimRuns("w", 3, 60_000, now)).map((r) => r.id)).toEqual([a1, b1, free]);
    expect(await store.claimRun(a2, "w", 60_000, now)).toBeNull();
    expect(await store.runsWaitingOnKey()).toEqual({ "t-ord": 1 });
    expect((await store.claimRuns("w", 10, 60_000, now)).map((r) => r.id)).toEqual([replayed]);
    expect(await store.claimRuns("w", 10, 60_000, now)).toEqual([]);
    // A retrying run is still running: it holds its key.
    expect(await store.recordAttempt(a1, "w", 1, null)).toBe(true);
    expect(await store.claimRuns("w", 10, 60_000, now)).toEqual([]);
    await store.finishRun(a1, "w", { status: "failed", result: null, error: "gave up", attempts: 3, finishedAt: now.toISOString() });
    expect((await store.claimRuns("w", 10, 60_000, now)).map((r) => r.id)).toEqual([a2]);
    expect(await store.runsWaitingOnKey()).toEqual({});
    expect((await store.getRun(replayed))?.replayOf).toBe("run-old");
    expect((await store.getRun(a1))?.replayOf).toBeNull();
    await store.close();
  });
  test("ordering: each destination's keys are its own; the same key on another destination does not wait", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-ord-dest"));
    const now = new Date();
    const queued = async (destination: string) => {
      const r = { ...run("t-ord-dest", now), status: "queued" as const, attempts: 0, finishedAt: null, orderingKey: "K", destination };
      await store.commitIngest({ dedup: null, run: r, activity: activity("t-ord-dest", now, "run", r.id) });
      return r.id;
    };
    const crm1 = await queued("crm");
    const crm2 = await queued("crm");
    const audit1 = await queued("audit");
    // crm's first holds K for crm only: audit's run with the same key starts beside it.
    expect((await store.claimRuns("w", 10, 60_000, now)).map((r) => r.id).sort()).toEqual([crm1, audit1].sort());
    expect(await store.claimRun(crm2, "w", 60_000, now)).toBeNull();
    await store.finishRun(crm1, "w", { status: "succeeded", result: null, error: null, attempts: 1, finishedAt: now.toISOString() });
    expect((await store.claimRuns("w", 10, 60_000, now)).map((r) => r.id)).toEqual([crm2]);
    await store.close();
  });
}
