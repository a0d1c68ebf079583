import { expect, test } from "bun:test";
import type { AlertRecord } from "../../src/records/alert.ts";
import type { RunRecord } from "../../src/records/run.ts";
import { activity, run, trigger, type OpenStore } from "./contract_fixtures.ts";

/** Maintenance: the retention sweep deletes what expired, in chunks, and nothing still needed. */
export function maintenanceContract(open: OpenStore): void {
  test("sweep removes expired keys and old Activity and finished runs only", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t5"));
    const old = new Date(Date.now() - 40 * 86_400_000);
    const oldRun = run("t5", old);
    await store.commitIngest({ dedup: { keyHash: "old", windowSeconds: 1 }, run: oldRun, activity: activity("t5", old, "run", oldRun.id) });
    const fresh = run("t5");
    await store.commitIngest({ dedup: { keyHash: "fresh", windowSeconds: 3600 }, run: fresh, activity: activity("t5", new Date(), "run", fresh.id) });
    const swept = await store.sweep(new Date(), new Date(Date.now() - 30 * 86_400_000));
    expect(swept).toEqual({ dedupKeys: 1, activity: 1, runs: 1, notifications: 0 });
    expect(await store.getRun(oldRun.id)).toBeNull();
    expect(await store.getRun(fresh.id)).not.toBeNull();
    expect(await store.hasDedupKey("t5", "fresh", new Date())).toBe(true);
    await store.close();
  });

  test("sweep deletes in chunks until every old row is gone; unfinished runs and newer rows stay", async () => {
    const store = await open({ sweepChunk: 3 });
    await store.insertTrigger(trigger("t-chunks"));
    const old = new Date(Date.now() - 40 * 86_400_000);
    const ingest = (r: RunRecord & { trigger: unknown }, at: Date, keyHash: string, windowSeconds: number) =>
      store.commitIngest({ dedup: { keyHash, windowSeconds }, run: r, activity: activity("t-chunks", at, "run", r.id) });
    const olds = Array.from({ length: 8 }, () => run("t-chunks", old));
    for (const [i, r] of olds.entries()) await ingest(r, old, `old-${i}`, 1);
    const queued = { ...run("t-chunks", old), status: "queued" as const, attempts: 0, finishedAt: null };
    await ingest(queued, old, "old-queued", 1);
    const fresh = run("t-chunks");
    await ingest(fresh, new Date(), "fresh", 3600);
    // Three rows per table per statement: only going on past full chunks reaches all of them.
    const swept = await store.sweep(new Date(), new Date(Date.now() - 30 * 86_400_000));
    expect(swept).toEqual({ dedupKeys: 9, activity: 9, runs: 8, notifications: 0 });
    for (const r of olds) expect(await store.getRun(r.id)).toBeNull();
    expect((await store.getRun(queued.id))?.status).toBe("queued");
    expect(await store.getRun(fresh.id)).not.toBeNull();
    expect(await store.hasDedupKey("t-chunks", "fresh", new Date())).toBe(true);
    await store.close();
  });

  test("sweep keeps unfinished runs however old (retention by an injected clock)", async () => {
    const store = await open();
    await store.insertTrigger(trigger("t8"));
    const old = new Date(Date.now() - 400 * 86_400_000);
    const queued = { ...run("t8", old), status: "queued" as const, attempts: 0, finishedAt: null };
    const failed = { ...run("t8", old), status: "failed" as const, error: "boom" };
    for (const r of [queued, failed]) await store.commitIngest({ dedup: null, run: r, activity: activity("t8", old, "run", r.id) });
    // One day of retention, seen from a clock a year on: the finished run and the Activity go.
    const later = new Date(old.getTime() + 365 * 86_400_000);
    const swept = await store.sweep(later, new Date(later.getTime() - 86_400_000));
    expect(swept.runs).toBe(1);
    expect(swept.activity).toBe(2);
    expect(await store.getRun(failed.id)).toBeNull();
    expect((await store.getRun(queued.id))?.status).toBe("queued");
    await store.close();
  });

  test("sweep removes alert notifications delivered before the cut-off; undelivered ones stay however old", async () => {
    const store = await open();
    const old = new Date(Date.now() - 40 * 86_400_000);
    const alert = (id: string): AlertRecord => ({
      id,
      triggerId: "tn",
      kind: "silence",
      state: "firing",
      since: old.toISOString(),
      value: 90,
      threshold: 60,
      notifiedAt: null,
    });
    for (const id of ["tn/a", "tn/b", "tn/c"]) expect(await store.transitionAlert(alert(id), null, { id: `n-${id}`, payload: "{}" })).toBe(true);
    expect((await store.claimAlertNotifications("o", 10, old, 30_000)).map((n) => n.id).sort()).toEqual(["n-tn/a", "n-tn/b", "n-tn/c"]);
    await store.settleAlertNotification("n-tn/a", "tn/a", { deliveredAt: old.toISOString() });
    await store.settleAlertNotification("n-tn/b", "tn/b", { deliveredAt: new Date().toISOString() });
    // n-tn/c was never delivered: it is retried, not swept.
    await store.settleAlertNotification("n-tn/c", "tn/c", { nextMs: old.getTime() });
    const swept = await store.sweep(new Date(), new Date(Date.now() - 30 * 86_400_000));
    expect(swept.notifications).toBe(1);
    expect((await store.claimAlertNotifications("o", 10, new Date(), 30_000)).map((n) => n.id)).toEqual(["n-tn/c"]);
    expect((await store.listAlerts()).find((a) => a.id === "tn/a")?.notifiedAt).toBe(old.toISOString());
    await store.close();
  });
}
