import { expect, test } from "bun:test";
import type { AlertNotification, AlertRecord } from "../records/alert.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import type { Store } from "../store/store.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../store/sqlite/sqlite_store.ts";
import { AlertMonitor } from "./monitor.ts";

test("a delivery asked for while one runs runs again after it: a notification committed meanwhile goes out at once, not at the next tick", async () => {
  const received: string[] = [];
  const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async (request) => (received.push(await request.text()), new Response("ok")) });
  // The first claim looks before the transition has committed (nothing due) and is slow to answer;
  // meanwhile the evaluation that committed it asks for a delivery.
  let claims = 0;
  let release!: () => void;
  const firstClaimSeen = new Promise<void>((resolve) => (release = resolve));
  const due: AlertNotification = { id: "n1", alertId: "t/silence::60", payload: '{"type":"alert.firing"}', attempts: 0 };
  const settled: string[] = [];
  const store = {
    listAlerts: async () => [],
    claimAlertNotifications: async () => {
      claims++;
      if (claims === 1) {
        release();
        await Bun.sleep(50);
        return [];
      }
      return claims === 2 ? [due] : [];
    },
    settleAlertNotification: async (id: string) => void settled.push(id),
  } as unknown as Store;
  const monitor = new AlertMonitor({
    store,
    triggers: { list: () => [] },
    url: `http://127.0.0.1:${receiver.port}/`,
    intervalMs: 60_000,
    owner: "me",
    log: () => {},
  });
  try {
    const running = monitor.deliver();
    await firstClaimSeen;
    // Asked for while the first runs: a second delivery right after it, which this call awaits.
    const again = monitor.deliver();
    await running;
    await again;
    expect(received).toEqual(['{"type":"alert.firing"}']);
    expect(settled).toEqual(["n1"]);
    expect(claims).toBe(2);
  } finally {
    await monitor.stop();
    receiver.stop(true);
  }
});

test("a notification not delivered is retried with backoff: each wait twice the last (1 s, 2 s, 4 s…)", async () => {
  const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("down", { status: 503 }) });
  let attempts = 0;
  const waits: number[] = [];
  const store = {
    listAlerts: async () => [],
    // The same notification, due again after each failed attempt.
    claimAlertNotifications: async () => [{ id: "n1", alertId: "t/silence::60", payload: "{}", attempts: attempts++ }],
    settleAlertNotification: async (_id: string, _alertId: string, outcome: { nextMs?: number }) => void waits.push(outcome.nextMs! - Date.now()),
  } as unknown as Store;
  const monitor = new AlertMonitor({
    store,
    triggers: { list: () => [] },
    url: `http://127.0.0.1:${receiver.port}/`,
    intervalMs: 60_000,
    owner: "me",
    log: () => {},
  });
  try {
    for (let i = 0; i < 4; i++) await monitor.deliver();
    expect(waits).toHaveLength(4);
    // Within the few milliseconds between settling and reading the clock.
    for (const [i, wait] of waits.entries()) expect(Math.abs(wait - 1000 * 2 ** i)).toBeLessThan(100);
  } finally {
    receiver.stop(true);
  }
});

test("a notification's text is escaped for Slack; its alert fields carry the trigger's name as it is", async () => {
  const payloads: string[] = [];
  const store = {
    listAlerts: async () => [],
    measureAlert: async () => 12,
    transitionAlert: async (_next: unknown, _from: unknown, notification: { payload: string } | null) => (
      notification && payloads.push(notification.payload), true
    ),
    claimAlertNotifications: async () => [],
  } as unknown as Store;
  const trigger = {
    id: "t1",
    name: "<!channel> & <http://evil|click>",
    createdAt: new Date().toISOString(),
    alerts: [{ kind: "backlog", count: 10 }],
  } as unknown as TriggerRecord;
  const monitor = new AlertMonitor({ store, triggers: { list: () => [trigger] }, url: "http://127.0.0.1:9/", intervalMs: 60_000, owner: "me", log: () => {} });
  try {
    await monitor.evaluate();
    expect(payloads).toHaveLength(1);
    const note = JSON.parse(payloads[0]);
    expect(note.text).toBe('🔴 inlet: trigger "&lt;!channel&gt; &amp; &lt;http://evil|click&gt;" — 12 runs queued or running (alert at 10)');
    expect(note.alert).toMatchObject({
      triggerId: "t1",
      triggerName: "<!channel> & <http://evil|click>",
      kind: "backlog",
      state: "firing",
      value: 12,
      threshold: 10,
    });
  } finally {
    await monitor.stop();
  }
});

test("a silence shorter than the evaluation interval resolves once a request is accepted after it began, and a new silence fires again", async () => {
  const alerts = new Map<string, AlertRecord>();
  const sent: string[] = [];
  let nowMs = Date.parse("2026-03-01T12:00:00.000Z");
  let lastAcceptedMs = nowMs;
  const store = {
    listAlerts: async () => [...alerts.values()],
    measureAlert: async () => Math.floor((nowMs - lastAcceptedMs) / 1000),
    transitionAlert: async (next: AlertRecord, _from: unknown, notification: { payload: string } | null) => {
      alerts.set(next.id, next);
      if (notification) sent.push(JSON.parse(notification.payload).type);
      return true;
    },
    claimAlertNotifications: async () => [],
  } as unknown as Store;
  const trigger = { id: "t1", name: "quiet", createdAt: new Date(nowMs).toISOString(), alerts: [{ kind: "silence", seconds: 2 }] } as unknown as TriggerRecord;
  const monitor = new AlertMonitor({
    store,
    triggers: { list: () => [trigger] },
    url: "http://127.0.0.1:9/",
    intervalMs: 5000,
    owner: "me",
    log: () => {},
    now: () => new Date(nowMs),
  });
  const tick = async (ms: number) => {
    nowMs += ms;
    await monitor.evaluate();
  };
  try {
    await tick(5000); // 5 s without a request: firing
    expect(sent).toEqual(["alert.firing"]);
    nowMs += 1000;
    lastAcceptedMs = nowMs; // an accepted request, 1 s after the firing began
    await tick(4000); // measured silence 4 s ≥ 2, but the request came after the firing began
    expect(sent).toEqual(["alert.firing", "alert.resolved"]);
    expect([...alerts.values()][0].state).toBe("ok");
    await tick(5000); // no request since: a new silence of 9 s fires again
    expect(sent).toEqual(["alert.firing", "alert.resolved", "alert.firing"]);
    await tick(5000); // still silent: stays firing, nothing new sent
    expect(sent).toEqual(["alert.firing", "alert.resolved", "alert.firing"]);
    // A request in the same second the firing began counts too.
    lastAcceptedMs = Date.parse([...alerts.values()][0].since);
    await tick(5000);
    expect(sent).toEqual(["alert.firing", "alert.resolved", "alert.firing", "alert.resolved"]);
  } finally {
    await monitor.stop();
  }
});

test("destination_open fires once a destination's breaker has been open that long, and resolves when it closes (the SQLite store measuring)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-monitor-"));
  const store = new SqliteStore(join(dir, "inlet.db"));
  const start = Date.parse("2026-03-01T12:00:00.000Z");
  let nowMs = start;
  const at = new Date(start).toISOString();
  const config = {
    id: "t-open",
    token: "tok-open",
    name: "crm-hook",
    createdAt: at,
    updatedAt: at,
    alerts: [{ kind: "destination_open", seconds: 60 }],
    destinations: [{ name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/" } }],
  };
  await store.insertTrigger({ config: config as never, secretSealed: null, appSecretSealed: null });
  const monitor = new AlertMonitor({
    store,
    triggers: { list: () => [config as unknown as TriggerRecord] },
    url: "http://127.0.0.1:9/",
    intervalMs: 5000,
    owner: "me",
    log: () => {},
    now: () => new Date(nowMs),
  });
  const stateAfter = async (seconds: number) => {
    nowMs = start + seconds * 1000;
    await monitor.evaluate();
    return (await store.listAlerts()).find((a) => a.triggerId === "t-open")?.state ?? "none";
  };
  try {
    const rule = { failures: 1, openSeconds: 600 };
    // One failed attempt opens the breaker (failures: 1) at the start.
    expect((await store.recordDelivery("t-open", "crm", rule, false, new Date(start))).breaker).toBe("open");
    expect(await stateAfter(30)).not.toBe("firing");
    expect(await stateAfter(61)).toBe("firing");
    // A successful attempt closes it: the alert resolves.
    expect((await store.recordDelivery("t-open", "crm", rule, true, new Date(start + 62_000))).breaker).toBe("closed");
    expect(await stateAfter(65)).toBe("ok");
  } finally {
    await monitor.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an alert listed while its transition is committed but not yet flushed shows the measure that moved it, not the one before", async () => {
  const trigger = { id: "t", name: "t", createdAt: new Date(0).toISOString(), alerts: [{ kind: "backlog", count: 10 }] } as unknown as TriggerRecord;
  let measure = 3;
  let stored: AlertRecord[] = [];
  let flushed!: () => void;
  let transitioning!: () => void;
  const inTransition = new Promise<void>((resolve) => (transitioning = resolve));
  const store = {
    listAlerts: async () => stored,
    measureAlert: async () => measure,
    // Visible at once (committed), answered once "on disk".
    transitionAlert: async (next: AlertRecord) => {
      stored = [next];
      if (next.state === "firing") {
        transitioning();
        await new Promise<void>((resolve) => (flushed = resolve));
      }
      return true;
    },
    dropAlerts: async () => {},
    claimAlertNotifications: async () => [],
  } as unknown as Store;
  const monitor = new AlertMonitor({ store, triggers: { list: () => [trigger] }, intervalMs: 60_000, owner: "me", log: () => {} });
  try {
    await monitor.evaluate();
    expect((await monitor.list()).map((a) => [a.state, a.value])).toEqual([["ok", 3]]);
    measure = 12;
    const evaluation = monitor.evaluate();
    await inTransition;
    const listed = (await monitor.list()).map((a) => [a.state, a.value]);
    flushed();
    await evaluation;
    expect(listed).toEqual([["firing", 12]]);
  } finally {
    await monitor.stop();
  }
});
