import { expect, test } from "bun:test";
import type { ActivityRecord } from "../../src/records/activity.ts";
import { activity, run, trigger, type OpenStore } from "./contract_fixtures.ts";

/** IngestLog: a request's key, run and Activity commit together, a key is claimed once within its window, refusals are counted. */
export function ingestLogContract(open: OpenStore): void {
  test("ingest: key + run + Activity commit together; a second identical key within the window is a duplicate", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t2"));
    const now = new Date();
    const first = run("t2", now);
    const a = await store.commitIngest({ dedup: { keyHash: "k1", windowSeconds: 60 }, run: first, activity: activity("t2", now, "run", first.id) });
    expect(a.deduplicated).toBe(false);
    expect(await store.hasDedupKey("t2", "k1", now)).toBe(true);
    const second = run("t2", now);
    const b = await store.commitIngest({ dedup: { keyHash: "k1", windowSeconds: 60 }, run: second, activity: activity("t2", now, "run", second.id) });
    expect(b.deduplicated).toBe(true);
    expect(await store.getRun(second.id)).toBeNull();
    const rows = await store.listActivity("t2", { limit: 10 });
    expect(rows.map((r) => r.outcome)).toEqual(["deduplicated", "run"]);
    expect(rows[0].runId).toBeNull();
    // The window is fixed from the first sighting.
    expect(await store.hasDedupKey("t2", "k1", new Date(now.getTime() + 61_000))).toBe(false);
    await store.close();
  });

  test("fan-out: one run per destination, the key and the Activity row listing every run commit together; a duplicate writes none", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-fan"));
    const now = new Date();
    const [crm, slack, audit] = ["crm", "slack", "audit"].map((destination) => ({
      ...run("t-fan", now),
      status: "queued" as const,
      attempts: 0,
      finishedAt: null,
      destination,
    }));
    const requestId = crm.requestId;
    for (const r of [slack, audit]) r.requestId = requestId;
    const row = { ...activity("t-fan", now, "run", crm.id), requestId, runIds: [crm.id, slack.id, audit.id] };
    const committed = await store.commitIngest({
      dedup: { keyHash: "fan", windowSeconds: 60 },
      run: crm,
      fanOut: [slack, audit],
      triggerJson: '{"body":{"n":1}}',
      activity: row,
    });
    expect(committed.deduplicated).toBe(false);
    const listed = await store.listRuns({ triggerId: "t-fan", limit: 10, includeTrigger: true });
    expect(listed.map((r) => [r.destination, r.status, r.requestId]).sort()).toEqual([
      ["audit", "queued", requestId],
      ["crm", "queued", requestId],
      ["slack", "queued", requestId],
    ]);
    expect(listed.every((r) => JSON.stringify(r.trigger) === '{"body":{"n":1}}')).toBe(true);
    const [stored] = await store.listActivity("t-fan", { limit: 10 });
    expect([stored.runId, stored.runIds]).toEqual([crm.id, [crm.id, slack.id, audit.id]]);
    // The same key again: a deduplicated row, no run of any destination.
    const again = ["crm", "slack"].map((destination) => ({ ...run("t-fan", now), destination }));
    const dup = await store.commitIngest({
      dedup: { keyHash: "fan", windowSeconds: 60 },
      run: again[0],
      fanOut: [again[1]],
      activity: { ...activity("t-fan", now, "run", again[0].id), runIds: again.map((r) => r.id) },
    });
    expect(dup.deduplicated).toBe(true);
    expect(await store.listRuns({ triggerId: "t-fan", limit: 10, includeTrigger: false })).toHaveLength(3);
    expect((await store.listActivity("t-fan", { limit: 10 }))[0]).toMatchObject({ outcome: "deduplicated", runId: null });
    // A run made before destinations belongs to default.
    const plain = run("t-fan", now);
    await store.commitIngest({ dedup: null, run: plain, activity: activity("t-fan", now, "run", plain.id) });
    expect((await store.getRun(plain.id))?.destination).toBe("default");
    await store.close();
  });

  test("a key past its window is claimed afresh: the next identical request is a new run", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t9"));
    const t0 = new Date();
    const first = run("t9", t0);
    expect(
      (await store.commitIngest({ dedup: { keyHash: "k", windowSeconds: 1 }, run: first, activity: activity("t9", t0, "run", first.id) })).deduplicated,
    ).toBe(false);
    const later = new Date(t0.getTime() + 2_000);
    const second = run("t9", later);
    expect(
      (await store.commitIngest({ dedup: { keyHash: "k", windowSeconds: 1 }, run: second, activity: activity("t9", later, "run", second.id) })).deduplicated,
    ).toBe(false);
    // The new window runs from the second sighting.
    expect(await store.hasDedupKey("t9", "k", new Date(later.getTime() + 500))).toBe(true);
    expect(await store.listRuns({ triggerId: "t9", limit: 10, includeTrigger: false })).toHaveLength(2);
    await store.close();
  });

  // In the same millisecond (claims with one expiry), and each a millisecond after the last (each
  // claim would expire at its own time).
  for (const [when, spacingMs] of [
    ["in the same millisecond", 0],
    ["a millisecond apart", 1],
  ] as const)
    test(`concurrent identical claims ${when} produce exactly one run`, async () => {
      const store = await open();
      await store.insertTrigger(trigger("t3"));
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const at = new Date(now + i * spacingMs);
          const r = run("t3", at);
          return store.commitIngest({ dedup: { keyHash: "same", windowSeconds: 60 }, run: r, activity: activity("t3", at, "run", r.id) });
        }),
      );
      expect(results.filter((r) => !r.deduplicated)).toHaveLength(1);
      expect(await store.listRuns({ triggerId: "t3", limit: 100, includeTrigger: false })).toHaveLength(1);
      expect(await store.listActivity("t3", { limit: 100 })).toHaveLength(50);
      await store.close();
    });

  test("counted Activity: one row per trigger, outcome, clock minute and reason; the first count's id, time and request id; the count grows; alerts count requests", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t-count"));
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const at = (ms: number) => new Date(minute + ms);
    const refused = (ms: number, outcome: ActivityRecord["outcome"], detail: string | null): ActivityRecord => ({
      ...activity("t-count", at(ms), outcome),
      detail,
    });
    const own = refused(1_000, "auth_failed", "wrong bearer token");
    await store.recordActivity(own);
    const first = refused(2_000, "auth_failed", "wrong bearer token");
    await store.countActivity(first);
    await store.countActivity(refused(3_000, "auth_failed", "wrong bearer token"));
    // Many at once, as a flood brings them: each adds one.
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.countActivity(refused(4_000 + i, "auth_failed", "wrong bearer token"))));
    await store.countActivity({ ...refused(5_000, "auth_failed", "wrong bearer token"), count: 10 });
    // Another reason, another outcome, no reason at all, the next minute: rows of their own.
    const missing = refused(6_000, "auth_failed", "missing Authorization header");
    await store.countActivity(missing);
    const limited = refused(7_000, "rejected", "wrong bearer token");
    await store.countActivity(limited);
    const unexplained = refused(8_000, "rejected", null);
    await store.countActivity(unexplained);
    await store.countActivity(refused(9_000, "rejected", null));
    const next = refused(61_000, "auth_failed", "wrong bearer token");
    await store.countActivity(next);

    const rows = await store.listActivity("t-count", { limit: 50 });
    expect(rows.map((r) => [r.id, r.outcome, r.detail, r.count])).toEqual([
      [next.id, "auth_failed", "wrong bearer token", 1],
      [unexplained.id, "rejected", null, 2],
      [limited.id, "rejected", "wrong bearer token", 1],
      [missing.id, "auth_failed", "missing Authorization header", 1],
      [first.id, "auth_failed", "wrong bearer token", 52],
      [own.id, "auth_failed", "wrong bearer token", 1],
    ]);
    expect(rows[4]).toMatchObject({ at: first.at, requestId: first.requestId, runId: null });
    expect(await store.getActivity(first.id)).toMatchObject({ count: 52, requestId: first.requestId });
    // Every request counts: 1 + 52 + 1 in the first minute, 1 in the next.
    const rule = { kind: "auth_failures" as const, count: 10, seconds: 300 };
    expect(await store.measureAlert("t-count", rule, at(120_000), at(0).toISOString())).toBe(55);
    expect(await store.measureAlert("t-count", { ...rule, seconds: 60 }, at(120_000), at(0).toISOString())).toBe(1);
    await store.close();
  });
}
