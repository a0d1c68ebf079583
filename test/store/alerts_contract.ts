import { expect, test } from "bun:test";
import type { AlertRecord } from "../../src/records/alert.ts";
import type { OpenStore } from "./contract_fixtures.ts";

/** AlertStore: alert transitions are recorded once; their notifications are leased, retried, settled and superseded. */
export function alertsContract(open: OpenStore): void {
  test("alerts: each transition is recorded once however many evaluators race; a newer one supersedes an undelivered notification; notifications are leased, retried, settled, dropped with their alert", async () => {
    const store = await open();
    const since = new Date().toISOString();
    const firing: AlertRecord = { id: "ta/silence::60", triggerId: "ta", kind: "silence", state: "firing", since, value: 90, threshold: 60, notifiedAt: null };
    const note = (id: string) => ({ id, payload: JSON.stringify({ note: id }) });
    const raced = await Promise.all(Array.from({ length: 10 }, (_, i) => store.transitionAlert(firing, null, note(`n-fire-${i}`))));
    expect(raced.filter(Boolean)).toHaveLength(1);
    const winner = `n-fire-${raced.indexOf(true)}`;
    expect(await store.transitionAlert(firing, "ok", note("n-stale"))).toBe(false);
    expect(await store.listAlerts()).toEqual([firing]);

    const t0 = new Date();
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await store.claimAlertNotifications("a", 10, t0, 30_000)).toEqual([{ id: winner, alertId: firing.id, payload: note(winner).payload, attempts: 0 }]);
    // Leased: nobody else gets it while the lease holds; once failed, it is due again at its next attempt.
    expect(await store.claimAlertNotifications("b", 10, at(1000), 30_000)).toEqual([]);
    await store.settleAlertNotification(winner, firing.id, { nextMs: at(2000).getTime() });
    expect(await store.claimAlertNotifications("b", 10, at(1000), 30_000)).toEqual([]);
    expect((await store.claimAlertNotifications("b", 10, at(2000), 30_000)).map((n) => [n.id, n.attempts])).toEqual([[winner, 1]]);

    // Resolved before the firing one was delivered: only the resolution goes out.
    const ok: AlertRecord = { ...firing, state: "ok", since: at(3000).toISOString(), value: 0 };
    expect(await store.transitionAlert(ok, "firing", note("n-ok"))).toBe(true);
    expect((await store.claimAlertNotifications("c", 10, at(60_000), 30_000)).map((n) => n.id)).toEqual(["n-ok"]);
    // The firing one was being sent (leased by b) when the alert resolved: it settles, but never marks the new state notified.
    await store.settleAlertNotification(winner, firing.id, { deliveredAt: at(60_500).toISOString() });
    expect((await store.listAlerts())[0].notifiedAt).toBeNull();
    const deliveredAt = at(61_000).toISOString();
    await store.settleAlertNotification("n-ok", ok.id, { deliveredAt });
    expect(await store.claimAlertNotifications("c", 10, at(600_000), 30_000)).toEqual([]);
    expect(await store.listAlerts()).toEqual([{ ...ok, notifiedAt: deliveredAt }]);

    const other: AlertRecord = { ...firing, id: "tb/backlog:1:", triggerId: "tb", kind: "backlog", value: 2, threshold: 1 };
    expect(await store.transitionAlert(other, null, note("n-other"))).toBe(true);
    await store.dropAlerts((id) => id !== other.id);
    expect((await store.listAlerts()).map((a) => a.id)).toEqual([ok.id]);
    expect(await store.claimAlertNotifications("d", 10, at(600_000), 30_000)).toEqual([]);
    await store.close();
  });
}
