import { Database } from "bun:sqlite";
import { sqlitePathIn } from "../src/store/sqlite/sqlite_store.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { dropDatabase, newSecretKey, startInstance, stopAll } from "./support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "./support/postgres.ts";
import { loadServerConfig } from "../src/config/load_server_config.ts";
import { BUN, ROOT, spawnServer } from "./support/process.ts";
import { ADMIN_TOKEN, startTestServer, waitFor, type TestServer } from "./support/server.ts";

// Alerts (docs/api.md#alerts) through real HTTP: a local destination records every notification.
const SECRET = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
/** `receivedAt`: `performance.now()` when the destination took it (for delays measured in this process). */
type Note = {
  type: string;
  text: string;
  alert: any;
  verified: boolean;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
  receivedAt: number;
};
const notes: Note[] = [];
/** Attempts the destination refused (while `failNext` lasts), to compare with what it took later. */
const refused: Note[] = [];
let failNext = 0;
const destination = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const receivedAt = performance.now();
    const body = await request.text();
    const headers = Object.fromEntries(request.headers);
    let verified = true;
    try {
      new Webhook(SECRET).verify(body, headers);
    } catch {
      verified = false;
    }
    const payload = JSON.parse(body);
    const note = { ...payload, verified, headers, payload, receivedAt };
    if (failNext > 0) {
      failNext--;
      refused.push(note);
      return new Response("down", { status: 503 });
    }
    notes.push(note);
    return new Response("ok");
  },
});
const alertUrl = `http://127.0.0.1:${destination.port}/alerts`;
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  destination.stop(true);
});

async function server(dataDir?: string): Promise<TestServer> {
  const s = await startTestServer(dataDir ? { dataDir } : {}, [
    "--alert-url",
    alertUrl,
    "--alert-secret",
    SECRET,
    "--alert-interval",
    "1",
    "--run-concurrency",
    "1",
  ]);
  cleanups.push(() => s.close());
  return s;
}
const of = (triggerId: string, kind: string) => notes.filter((n) => n.alert.triggerId === triggerId && n.alert.kind === kind);
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json", ...headers } });

/** A trigger whose runs stay running (their http target answers only on `release()`), with a backlog rule. */
async function backlogged(s: TestServer, name: string, count: number) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const slow = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async () => (await held, new Response("ok")) });
  cleanups.push(() => slow.stop(true));
  const t = await s.createTrigger({
    name,
    workflow: { kind: "http", url: `http://127.0.0.1:${slow.port}/`, timeoutMs: 30_000 },
    alerts: [{ kind: "backlog", count }],
  });
  return { t, release };
}

describe("each kind fires and resolves, with exactly one signed notification each", () => {
  test("silence, auth_failures, run_failures and backlog", async () => {
    const s = await server();
    const quiet = await s.createTrigger({ name: "quiet", alerts: [{ kind: "silence", seconds: 1 }] });
    const guarded = await s.createTrigger({ name: "guarded", auth: { type: "bearer" }, alerts: [{ kind: "auth_failures", count: 2, seconds: 2 }] });
    const failing = await s.createTrigger({
      name: "failing",
      workflow: { kind: "http", url: "http://127.0.0.1:9/down", retry: { maxAttempts: 1 } },
      alerts: [{ kind: "run_failures", count: 1, seconds: 2 }],
    });

    await waitFor("silence fires", () => of(quiet.id, "silence").length === 1, 10_000);
    expect(of(quiet.id, "silence")[0]).toMatchObject({ type: "alert.firing", verified: true, alert: { state: "firing", triggerName: "quiet", threshold: 1 } });
    expect(of(quiet.id, "silence")[0].text).toContain('trigger "quiet"');
    await post(quiet.url);
    await waitFor("silence resolves", () => of(quiet.id, "silence").length === 2, 10_000);
    expect(of(quiet.id, "silence")[1]).toMatchObject({ type: "alert.resolved", alert: { state: "ok" } });

    await post(guarded.url, { Authorization: "Bearer wrong" });
    await post(guarded.url, { Authorization: "Bearer wrong" });
    await waitFor("auth failures fire", () => of(guarded.id, "auth_failures").length === 1, 10_000);
    expect(of(guarded.id, "auth_failures")[0].alert.value).toBeGreaterThanOrEqual(2);
    await waitFor("auth failures resolve once the window passes", () => of(guarded.id, "auth_failures").length === 2, 10_000);

    await post(failing.url);
    await waitFor("run failures fire", () => of(failing.id, "run_failures").length === 1, 10_000);
    await waitFor("run failures resolve", () => of(failing.id, "run_failures").length === 2, 10_000);

    const alerts = (await s.api("GET", "/api/alerts")).body as any[];
    const quietAlert = alerts.find((a) => a.triggerId === quiet.id);
    expect(quietAlert).toMatchObject({ kind: "silence", threshold: 1 });
    expect(quietAlert.notifiedAt).not.toBeNull();
    expect(notes.every((n) => n.verified)).toBe(true);
    // One notification per transition: firing and resolved alternate, never two alike in a row
    // (a quiet trigger goes silent again after its second of grace, and fires again).
    await Bun.sleep(1500);
    for (const list of [of(quiet.id, "silence"), of(guarded.id, "auth_failures"), of(failing.id, "run_failures")]) {
      list.forEach((n, i) => expect(n.type).toBe(i % 2 === 0 ? "alert.firing" : "alert.resolved"));
    }
  }, 60_000);

  test("backlog, with inlet_alert_firing in /metrics", async () => {
    const s = await server();
    const { t, release } = await backlogged(s, "backlogged", 3);
    for (let i = 0; i < 3; i++) await post(t.url);
    await waitFor("backlog fires", () => of(t.id, "backlog").length === 1, 10_000);
    expect(await (await fetch(`${s.url}/metrics`)).text()).toContain(`inlet_alert_firing{trigger="${t.id}",kind="backlog"} 1`);
    release();
    await waitFor("backlog resolves", () => of(t.id, "backlog").length === 2, 15_000);
  }, 60_000);
});

test("a destination that is down is retried until it takes the notification, once", async () => {
  failNext = 2;
  const s = await server();
  const t = await s.createTrigger({ name: "down-then-up", alerts: [{ kind: "silence", seconds: 1 }] });
  await waitFor("delivered after retries", () => of(t.id, "silence").length === 1, 20_000);
  await Bun.sleep(1500);
  expect(of(t.id, "silence")).toHaveLength(1);
  // Standard Webhooks: a retry is the same message, so the receiver can tell it apart by webhook-id.
  const tries = refused.filter((n) => n.alert.triggerId === t.id);
  expect(tries.length).toBeGreaterThan(0);
  for (const attempt of tries) expect(attempt.headers["webhook-id"]).toBe(of(t.id, "silence")[0].headers["webhook-id"]);
}, 30_000);

test("a notification the destination missed is never sent after a later transition's", async () => {
  const s = await server();
  const { t, release } = await backlogged(s, "missed", 1);
  failNext = 1000;
  await post(t.url);
  // Refused at once, 1 s and 3 s later; its next try would be due 4 s after the third.
  await waitFor("three refused tries", () => refused.filter((n) => n.alert.triggerId === t.id).length === 3, 15_000);
  failNext = 0;
  release();
  await waitFor("resolved delivered", () => of(t.id, "backlog").some((n) => n.type === "alert.resolved"), 10_000);
  // Nothing of the alert is left to send: the missed "firing" went with the transition that superseded it.
  const db = new Database(sqlitePathIn(s.dataDir), { readonly: true });
  try {
    expect(db.query("SELECT count(*) AS n FROM alert_outbox WHERE delivered_at IS NULL AND alert_id LIKE ?").get(`${t.id}/%`)).toEqual({ n: 0 });
  } finally {
    db.close();
  }
  const types = of(t.id, "backlog").map((n) => n.type);
  expect(types.at(-1)).toBe("alert.resolved");
  expect(new Set(types).size).toBe(types.length);
}, 40_000);

test("a restart repeats nothing", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-test-alerts-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startTestServer({ dataDir }, ["--alert-url", alertUrl, "--alert-secret", SECRET, "--alert-interval", "1"]);
  const t = await first.createTrigger({ name: "restart", alerts: [{ kind: "silence", seconds: 1 }] });
  await waitFor("fires", () => of(t.id, "silence").length === 1, 10_000);
  await first.close();
  await server(dataDir);
  await Bun.sleep(2500);
  expect(of(t.id, "silence")).toHaveLength(1);
}, 30_000);

test("rules are checked at save", async () => {
  const s = await server();
  const bad = await s.api("POST", "/api/triggers", { name: "bad", alerts: [{ kind: "silence", seconds: 0 }] });
  expect(bad.status).toBe(400);
  const many = await s.api("POST", "/api/triggers", { name: "many", alerts: Array.from({ length: 11 }, () => ({ kind: "backlog", count: 1 })) });
  expect(many.status).toBe(400);
});

describe.skipIf(!postgresAvailable())("two instances on one PostgreSQL database", () => {
  test("each transition is notified exactly once", async () => {
    const url = await freshDatabase((await sharedPostgres())!, "inlet_alerts");
    cleanups.push(() => dropDatabase(url).catch(() => {}));
    cleanups.push(stopAll);
    const options = {
      databaseUrl: url,
      secretKey: newSecretKey(),
      adminToken: "alerts-admin-token-0123456789",
      args: ["--alert-url", alertUrl, "--alert-secret", SECRET, "--alert-interval", "1"],
    };
    const a = await startInstance("alert-a", options);
    await startInstance("alert-b", options);
    const t = (await a.api("POST", "/api/triggers", { name: "pg-silence", alerts: [{ kind: "silence", seconds: 1 }] })).body;
    await waitFor("fires", () => of(t.id, "silence").length >= 1, 15_000);
    await a.webhook(t.token, "{}");
    await waitFor("resolves", () => of(t.id, "silence").length >= 2, 15_000);
    await Bun.sleep(2500);
    // Both instances evaluate every second; still each transition arrives once: they alternate.
    of(t.id, "silence").forEach((n, i) => expect(n.type).toBe(i % 2 === 0 ? "alert.firing" : "alert.resolved"));
    expect(of(t.id, "silence").filter((n) => n.type === "alert.resolved")).toHaveLength(1);
  }, 60_000);
});

// The shapes of docs/api.md#alerts: a notification's `alert`, and each row of `GET /api/alerts`.
const ALERT_FIELDS = ["id", "kind", "since", "state", "threshold", "triggerId", "value"];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const listed = async (s: TestServer, triggerId: string) => ((await s.api("GET", "/api/alerts")).body as any[]).filter((a) => a.triggerId === triggerId);

function expectNotification(note: Note, state: "firing" | "ok", trigger: { id: string; name: string }) {
  expect(note.verified).toBe(true);
  expect(note.headers["content-type"]).toStartWith("application/json");
  expect(Object.keys(note.payload).sort()).toEqual(["alert", "text", "type"]);
  expect(note.type).toBe(state === "firing" ? "alert.firing" : "alert.resolved");
  expect(note.text).toBeString();
  expect(note.text).toMatch(/^[^\r\n]+$/);
  expect(Object.keys(note.alert).sort()).toEqual([...ALERT_FIELDS, "triggerName"].sort());
  expect(note.alert).toMatchObject({ triggerId: trigger.id, triggerName: trigger.name, state });
  expect(note.alert.id).toBeString();
  expect(note.alert.since).toMatch(ISO_8601);
}

function expectListed(row: any, triggerId: string) {
  expect(Object.keys(row).sort()).toEqual([...ALERT_FIELDS, "notifiedAt"].sort());
  expect(row.triggerId).toBe(triggerId);
  expect(["firing", "ok"]).toContain(row.state);
  expect(row.since).toMatch(ISO_8601);
  expect(Date.parse(row.since)).toBeLessThanOrEqual(Date.now());
  expect(row.value).toBeNumber();
  expect(row.threshold).toBeNumber();
  if (row.notifiedAt !== null) expect(row.notifiedAt).toMatch(ISO_8601);
}

/** 400 `{"error":"<one line>","details":[{"path","message"}]}`, every detail pointing into `alerts`. */
function expectInvalidAlerts(answer: { status: number; body: any; headers: Headers }) {
  expect(answer.status).toBe(400);
  expect(answer.headers.get("content-type")).toStartWith("application/json");
  expect(Object.keys(answer.body).sort()).toEqual(["details", "error"]);
  expect(answer.body.error).toMatch(/^[^\r\n]+$/);
  expect(answer.body.details.length).toBeGreaterThan(0);
  for (const detail of answer.body.details) {
    expect(Object.keys(detail).sort()).toEqual(["message", "path"]);
    expect(detail.path).toMatch(/^\/alerts(\/|$)/);
    expect(detail.message).toBeString();
  }
}

describe("GET /api/alerts and the notifications", () => {
  test("carry each rule's id, state and since in the contract's shape, and agree", async () => {
    const s = await server();
    const t = await s.createTrigger({
      name: "shapes",
      auth: { type: "bearer" },
      alerts: [
        { kind: "auth_failures", count: 1, seconds: 3 },
        { kind: "backlog", count: 1_000_000 },
      ],
    });
    await post(t.url, { Authorization: "Bearer wrong" });
    const fired = await waitFor("fires", () => of(t.id, "auth_failures")[0], 10_000);
    expectNotification(fired, "firing", t);
    expect(fired.alert).toMatchObject({ kind: "auth_failures", value: 1, threshold: 1 });

    const rows = await listed(s, t.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) expectListed(row, t.id);
    const failures = rows.find((r) => r.kind === "auth_failures");
    const backlog = rows.find((r) => r.kind === "backlog");
    expect(failures).toMatchObject({ id: fired.alert.id, state: "firing", since: fired.alert.since, value: 1, threshold: 1 });
    expect(backlog).toMatchObject({ state: "ok", value: 0, threshold: 1_000_000, notifiedAt: null });
    expect(backlog.id).not.toBe(failures.id);

    // The same alert resolves once the 401 leaves the window: same id, a later since.
    const resolved = await waitFor("resolves", () => of(t.id, "auth_failures")[1], 10_000);
    expectNotification(resolved, "ok", t);
    expect(resolved.alert).toMatchObject({ id: fired.alert.id, value: 0, threshold: 1 });
    expect(Date.parse(resolved.alert.since)).toBeGreaterThan(Date.parse(fired.alert.since));
    const after = await waitFor("notifiedAt records the delivery", async () =>
      (await listed(s, t.id)).find((r) => r.id === fired.alert.id && r.notifiedAt && Date.parse(r.notifiedAt) >= Date.parse(resolved.alert.since)),
    );
    expectListed(after, t.id);
    expect(after).toMatchObject({ state: "ok", since: resolved.alert.since, value: 0 });
  }, 30_000);

  test("GET /api/alerts needs the admin token", async () => {
    const s = await server();
    for (const headers of [{}, { Authorization: "Bearer not-the-token" }] as Array<Record<string, string>>) {
      const answer = await fetch(`${s.url}/api/alerts`, { headers });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ error: "unauthorized" });
    }
    const answer = await fetch(`${s.url}/api/alerts`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toBeArray();
  });

  test("a 401 does not end a silence: its measure is the time since the last accepted request", async () => {
    const s = await server();
    const t = await s.createTrigger({ name: "knocking", auth: { type: "bearer" }, alerts: [{ kind: "silence", seconds: 1 }] });
    const fired = await waitFor("fires", () => of(t.id, "silence")[0], 10_000);
    expect((await post(t.url, { Authorization: "Bearer wrong" })).status).toBe(401);
    const row = await waitFor("the silence goes on", async () => (await listed(s, t.id)).find((r) => r.value >= fired.alert.value + 2), 10_000);
    expect(row).toMatchObject({ id: fired.alert.id, state: "firing", since: fired.alert.since, threshold: 1 });
    expect(of(t.id, "silence")).toHaveLength(1);
    expect((await post(t.url, { Authorization: `Bearer ${t.secret}` })).status).toBe(200);
    expectNotification(await waitFor("an accepted request ends it", () => of(t.id, "silence")[1], 10_000), "ok", t);
  }, 30_000);

  test("a rule taken off its trigger, or a deleted trigger, leaves the list", async () => {
    const s = await server();
    const kept = await s.createTrigger({
      name: "kept",
      alerts: [
        { kind: "backlog", count: 5 },
        { kind: "backlog", count: 6 },
      ],
    });
    const gone = await s.createTrigger({ name: "gone", alerts: [{ kind: "backlog", count: 5 }] });
    await waitFor("listed", async () => (await listed(s, kept.id)).length === 2 && (await listed(s, gone.id)).length === 1);
    expect((await s.api("PATCH", `/api/triggers/${kept.id}`, { alerts: [{ kind: "backlog", count: 6 }] })).body.alerts).toEqual([
      { kind: "backlog", count: 6 },
    ]);
    expect((await s.api("DELETE", `/api/triggers/${gone.id}`)).status).toBe(204);
    await waitFor("dropped", async () => (await listed(s, kept.id)).map((r) => r.threshold).join() === "6" && (await listed(s, gone.id)).length === 0);
    expect((await s.api("PATCH", `/api/triggers/${kept.id}`, { alerts: [] })).body.alerts).toEqual([]);
    await waitFor("cleared", async () => (await listed(s, kept.id)).length === 0);
  }, 30_000);

  test("inlet_alert_firing is one series per trigger and kind, 1 while one of its rules fires", async () => {
    const s = await server();
    const t = await s.createTrigger({
      name: "two-windows",
      auth: { type: "bearer" },
      alerts: [
        { kind: "auth_failures", count: 1, seconds: 600 },
        { kind: "auth_failures", count: 5, seconds: 600 },
        { kind: "backlog", count: 1_000_000 },
      ],
    });
    const gauge = async (kind: string) => {
      const prefix = `inlet_alert_firing{trigger="${t.id}",kind="${kind}"} `;
      return (await (await fetch(`${s.url}/metrics`)).text())
        .split("\n")
        .filter((line) => line.startsWith(prefix))
        .map((line) => line.slice(prefix.length));
    };
    await waitFor("evaluated", async () => (await gauge("backlog")).length > 0);
    expect(await gauge("backlog")).toEqual(["0"]);
    expect(await gauge("auth_failures")).toEqual(["0"]);
    await post(t.url, { Authorization: "Bearer wrong" });
    await waitFor("fires", async () => (await gauge("auth_failures")).includes("1"), 10_000);
    expect(await gauge("auth_failures")).toEqual(["1"]);
    expect(await gauge("backlog")).toEqual(["0"]);
    // Below its count the other rule stays ok, and shows the measure now.
    await waitFor("measured", async () => (await listed(s, t.id)).find((r) => r.threshold === 5 && r.value === 1));
    expect((await listed(s, t.id)).find((r) => r.threshold === 5)).toMatchObject({ kind: "auth_failures", state: "ok" });
    // One notification: the rule that fired. (The other, fine from its first evaluation, says nothing.)
    await waitFor("notified", () => of(t.id, "auth_failures").length > 0, 10_000);
    expect(of(t.id, "auth_failures")).toHaveLength(1);
  }, 30_000);
});

test("with the default interval, a rule is evaluated within 5 s: a 401 just after an evaluation is notified within 5 s (+2 s margin)", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-test-alerts-default-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // The trigger exists before the server under test starts, so that its first evaluation (at
  // start) already sees the rule: no wait for a later tick before the measure begins.
  const setup = await startTestServer({ dataDir });
  const t = await setup.createTrigger({ name: "default-interval", auth: { type: "bearer" }, alerts: [{ kind: "auth_failures", count: 1, seconds: 600 }] });
  await setup.close();
  // No --alert-interval and no INLET_ALERT_INTERVAL (startTestServer reads no environment but the admin token).
  const s = await startTestServer({ dataDir }, ["--alert-url", alertUrl, "--alert-secret", SECRET]);
  cleanups.push(() => s.close());
  // The rule is listed once an evaluation has looked at it; the 401 follows at once, so the next
  // evaluation is a whole interval away: the worst case the contract bounds, not a lucky phase.
  await waitFor("the first evaluation", async () => (await listed(s, t.id)).length === 1, 5000, 10);
  const conditionTrue = performance.now();
  expect((await post(`${s.url}/webhooks/${t.token}`, { Authorization: "Bearer wrong" })).status).toBe(401);
  const fired = await waitFor("firing notification", () => of(t.id, "auth_failures")[0], 15_000);
  expectNotification(fired, "firing", t);
  // Contract: 5 s. Margin 2 s for what is not the interval: a timer late on a loaded machine, the
  // 401's Activity row written just after its answer, the evaluation's reads, the local POST.
  // An interval of 10 s would take about 10 s here, and fail.
  expect(fired.receivedAt - conditionTrue).toBeLessThanOrEqual(5000 + 2000);
}, 30_000);

describe("rule limits: seconds 1..604800, count 1..1000000, at most 10 rules", () => {
  const RANGE = { seconds: [1, 604_800], count: [1, 1_000_000] } as const;
  const FIELDS = [
    { rule: { kind: "silence", seconds: 60 }, field: "seconds" },
    { rule: { kind: "auth_failures", count: 10, seconds: 300 }, field: "count" },
    { rule: { kind: "auth_failures", count: 10, seconds: 300 }, field: "seconds" },
    { rule: { kind: "run_failures", count: 1, seconds: 300 }, field: "count" },
    { rule: { kind: "run_failures", count: 1, seconds: 300 }, field: "seconds" },
    { rule: { kind: "backlog", count: 1000 }, field: "count" },
  ] as const;
  let s: TestServer;
  beforeAll(async () => {
    s = await server();
  });

  for (const { rule, field } of FIELDS) {
    test(`${rule.kind}.${field}: accepted at each end, refused just past it, on create and on change`, async () => {
      const [min, max] = RANGE[field];
      for (const value of [min, max]) {
        const alerts = [{ ...rule, [field]: value }];
        const created = await s.api("POST", "/api/triggers", { name: "at-limit", alerts });
        expect(created.status).toBe(201);
        expect(created.body.alerts).toEqual(alerts);
      }
      for (const value of [min - 1, max + 1, min + 0.5, String(min), null]) {
        expectInvalidAlerts(await s.api("POST", "/api/triggers", { name: "past-limit", alerts: [{ ...rule, [field]: value }] }));
      }
      const t = await s.createTrigger({ name: "changed", alerts: [rule] });
      const atMax = [{ ...rule, [field]: max }];
      const changed = await s.api("PATCH", `/api/triggers/${t.id}`, { alerts: atMax });
      expect(changed.status).toBe(200);
      expect(changed.body.alerts).toEqual(atMax);
      for (const value of [min - 1, max + 1]) expectInvalidAlerts(await s.api("PATCH", `/api/triggers/${t.id}`, { alerts: [{ ...rule, [field]: value }] }));
      expect((await s.api("GET", `/api/triggers/${t.id}`)).body.alerts).toEqual(atMax);
    });
  }

  test("10 rules are accepted, 11 refused, on create and on change", async () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: "backlog", count: i + 1 }));
    const created = await s.api("POST", "/api/triggers", { name: "ten", alerts: rules(10) });
    expect(created.status).toBe(201);
    expect(created.body.alerts).toEqual(rules(10));
    expectInvalidAlerts(await s.api("POST", "/api/triggers", { name: "eleven", alerts: rules(11) }));
    expectInvalidAlerts(await s.api("PATCH", `/api/triggers/${created.body.id}`, { alerts: rules(11) }));
    expect((await s.api("GET", `/api/triggers/${created.body.id}`)).body.alerts).toEqual(rules(10));
  });

  test("malformed rules are refused in the contract's shape, and nothing is created", async () => {
    const count = async () => ((await s.api("GET", "/api/triggers")).body as any[]).length;
    const before = await count();
    for (const alerts of [
      [{ kind: "latency", seconds: 60 }],
      [{ kind: "silence" }],
      [{ kind: "auth_failures", count: 1 }],
      [{ kind: "backlog", seconds: 60 }],
      [{ kind: "silence", seconds: 60, count: 1 }],
      [{ seconds: 60 }],
      ["silence"],
      { kind: "silence", seconds: 60 },
      "silence",
    ]) {
      expectInvalidAlerts(await s.api("POST", "/api/triggers", { name: "malformed", alerts }));
    }
    expect(await count()).toBe(before);
  });
});

test("INLET_ALERT_URL, INLET_ALERT_SECRET: the flags' env twins", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-test-alerts-env-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { INLET_DATA_DIR: dataDir, INLET_ADMIN_TOKEN: ADMIN_TOKEN, INLET_ALERT_INTERVAL: "1", INLET_LOG_REQUESTS: "false" };
  expect(() => loadServerConfig([], { ...env, INLET_ALERT_SECRET: "not-a-standard-webhooks-secret" })).toThrow("alert-secret");
  const proc = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], [], { env: { ...env, INLET_ALERT_URL: alertUrl, INLET_ALERT_SECRET: SECRET } });
  cleanups.push(async () => {
    proc.proc.kill();
    await proc.proc.exited;
  });
  const created = await fetch(`${proc.url}/api/triggers`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "from-env", alerts: [{ kind: "silence", seconds: 1 }] }),
  });
  const t = await created.json();
  expectNotification(await waitFor("signed notification", () => of(t.id, "silence")[0], 15_000), "firing", t);
}, 60_000);
