import { expect, test } from "bun:test";
import type { Store } from "../../src/store/store.ts";
import { activity, run, trigger, type OpenStore } from "./contract_fixtures.ts";

const BREAKER = { failures: 2, openSeconds: 30 };

async function queued(store: Store, triggerId: string, destination: string, at: Date) {
  const r = { ...run(triggerId, at), status: "queued" as const, attempts: 0, finishedAt: null, destination };
  await store.commitIngest({ dedup: null, run: r, activity: activity(triggerId, at, "run", r.id) });
  return r;
}

const done = (at: Date) => ({ status: "succeeded" as const, result: null, error: null, attempts: 1, finishedAt: at.toISOString() });

/** DestinationStates: pause and the breaker live in the store; claims honour them and the rate limit. */
export function destinationStatesContract(open: OpenStore): void {
  test("a paused destination's runs stay queued, spending no attempt, until it is resumed; the state survives reopening", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-pause"));
    const now = new Date();
    const held = await queued(store, "t-pause", "crm", now);
    const other = await queued(store, "t-pause", "audit", now);
    expect(await store.setPaused("t-pause", "crm", true)).toMatchObject({ paused: true, breaker: "closed" });
    const claimed = await store.claimRuns("a", 8, 10_000, now);
    expect(claimed.map((r) => r.id)).toEqual([other.id]);
    expect(await store.claimRun(held.id, "a", 10_000, now)).toBeNull();
    expect(await store.getRun(held.id)).toMatchObject({ status: "queued", attempts: 0 });
    expect((await store.destinationStates("t-pause")).map((s) => [s.destination, s.paused])).toEqual([["crm", true]]);
    expect(await store.destinationLoads("t-pause")).toEqual(
      expect.arrayContaining([
        { triggerId: "t-pause", destination: "crm", queued: 1, running: 0 },
        { triggerId: "t-pause", destination: "audit", queued: 0, running: 1 },
      ]),
    );
    await store.setPaused("t-pause", "crm", false);
    expect((await store.claimRuns("a", 8, 10_000, now)).map((r) => r.id)).toEqual([held.id]);
    await store.close();
  });

  test("the breaker opens after its failures, holds runs while open, tries one when its time is up, closes on success, reopens twice as long on failure", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-break"));
    const t0 = new Date("2026-06-01T10:00:00.000Z");
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    expect((await store.recordDelivery("t-break", "crm", BREAKER, false, t0)).breaker).toBe("closed");
    const opened = await store.recordDelivery("t-break", "crm", BREAKER, false, t0);
    expect(opened).toMatchObject({ breaker: "open", failures: 2, openUntilMs: t0.getTime() + 30_000, openedAtMs: t0.getTime() });
    const runs = [await queued(store, "t-break", "crm", t0), await queued(store, "t-break", "crm", t0)];
    expect(await store.claimRuns("a", 8, 60_000, at(10))).toEqual([]);
    // Its time is up: half-open, one run is tried.
    const tried = await store.claimRuns("a", 8, 60_000, at(31));
    expect(tried.map((r) => r.id)).toEqual([runs[0].id]);
    expect((await store.destinationStates("t-break"))[0].breaker).toBe("half-open");
    expect(await store.claimRuns("a", 8, 60_000, at(32))).toEqual([]);
    // It fails: open again, twice as long.
    const again = await store.recordDelivery("t-break", "crm", BREAKER, false, at(33));
    expect(again).toMatchObject({ breaker: "open", openUntilMs: at(33).getTime() + 60_000, openedAtMs: t0.getTime() });
    await store.finishRun(runs[0].id, "a", done(at(33)));
    expect(await store.claimRuns("a", 8, 60_000, at(60))).toEqual([]);
    expect((await store.claimRuns("a", 8, 60_000, at(94))).map((r) => r.id)).toEqual([runs[1].id]);
    // A success closes it and forgets its failures.
    expect(await store.recordDelivery("t-break", "crm", BREAKER, true, at(95))).toMatchObject({
      breaker: "closed",
      failures: 0,
      openUntilMs: null,
      openedAtMs: null,
    });
    // failures 0: the breaker never opens.
    for (let i = 0; i < 5; i++) await store.recordDelivery("t-break", "other", { failures: 0, openSeconds: 30 }, false, at(96));
    expect((await store.destinationStates("t-break")).find((s) => s.destination === "other")?.breaker ?? "closed").toBe("closed");
    await store.close();
  });

  test("destination_open measures how long the trigger's longest-broken destination has been open; 0 once it closes", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-alert"));
    const t0 = new Date("2026-06-01T10:00:00.000Z");
    const rule = { kind: "destination_open" as const, seconds: 60 };
    const created = t0.toISOString();
    expect(await store.measureAlert("t-alert", rule, t0, created)).toBe(0);
    await store.recordDelivery("t-alert", "crm", { failures: 1, openSeconds: 30 }, false, t0);
    expect(await store.measureAlert("t-alert", rule, new Date(t0.getTime() + 90_000), created)).toBe(90);
    await store.recordDelivery("t-alert", "crm", { failures: 1, openSeconds: 30 }, true, new Date(t0.getTime() + 95_000));
    expect(await store.measureAlert("t-alert", rule, new Date(t0.getTime() + 96_000), created)).toBe(0);
    await store.close();
  });

  test("a rate limit holds starts to max(1, perSecond) in any second, one per 1/perSecond seconds below 1", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-rate"));
    const t0 = new Date("2026-06-01T10:00:00.000Z");
    const at = (ms: number) => new Date(t0.getTime() + ms);
    for (let i = 0; i < 6; i++) await queued(store, "t-rate", "fast", t0);
    for (let i = 0; i < 3; i++) await queued(store, "t-rate", "slow", t0);
    const rules = (_t: string, d: string) => (d === "fast" ? { concurrency: 64, perSecond: 2 } : { concurrency: 64, perSecond: 0.5 });
    const first = await store.claimRuns("a", 8, 60_000, at(0), rules);
    expect(first.map((r) => r.destination).sort()).toEqual(["fast", "fast", "slow"]);
    expect(await store.claimRuns("a", 8, 60_000, at(500), rules)).toEqual([]);
    expect((await store.claimRuns("a", 8, 60_000, at(1000), rules)).map((r) => r.destination)).toEqual(["fast", "fast"]);
    expect((await store.claimRuns("a", 8, 60_000, at(1999), rules)).map((r) => r.destination)).toEqual([]);
    expect((await store.claimRuns("a", 8, 60_000, at(2000), rules)).map((r) => r.destination).sort()).toEqual(["fast", "fast", "slow"]);
    await store.close();
  });
  test("a destination's state goes with it: removed from the trigger (re-added, it starts afresh) or with the trigger deleted", async () => {
    const store = await open();
    const withTwo = (t: ReturnType<typeof trigger>) => ({
      ...t,
      config: { ...t.config, workflow: undefined, destinations: ["crm", "audit"].map((name) => ({ name, workflow: { kind: "none" as const } })) },
    });
    const t = withTwo(trigger("t-gone"));
    await store.insertTrigger(t as never);
    await store.setPaused("t-gone", "crm", true);
    await store.setPaused("t-gone", "audit", true);
    const onlyAudit = { ...t, config: { ...t.config, destinations: t.config.destinations.filter((d) => d.name === "audit") } };
    await store.updateTrigger(onlyAudit as never);
    expect((await store.destinationStates("t-gone")).map((s) => s.destination)).toEqual(["audit"]);
    await store.updateTrigger(t as never);
    expect((await store.destinationStates("t-gone")).map((s) => [s.destination, s.paused])).toEqual([["audit", true]]);
    expect(await store.deleteTrigger("t-gone")).toBe(true);
    expect(await store.destinationStates("t-gone")).toEqual([]);
    await store.close();
  });
}
