import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { dropDatabase, newSecretKey, startInstance, stopAll } from "./support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "./support/postgres.ts";
import { startTestServer, waitFor, type TestServer } from "./support/server.ts";

// Alerts (CONTRACT §6.3) through real HTTP: a local destination records every notification.
const SECRET = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
const notes: Array<{ type: string; text: string; alert: any; verified: boolean }> = [];
let failNext = 0;
const destination = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const body = await request.text();
    if (failNext > 0) {
      failNext--;
      return new Response("down", { status: 503 });
    }
    let verified = true;
    try {
      new Webhook(SECRET).verify(body, Object.fromEntries(request.headers));
    } catch {
      verified = false;
    }
    notes.push({ ...JSON.parse(body), verified });
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
  const s = await startTestServer(dataDir ? { dataDir } : {}, ["--alert-url", alertUrl, "--alert-secret", SECRET, "--alert-interval", "1", "--run-concurrency", "1"]);
  cleanups.push(() => s.close());
  return s;
}
const of = (triggerId: string, kind: string) => notes.filter((n) => n.alert.triggerId === triggerId && n.alert.kind === kind);
const post = (url: string, headers: Record<string, string> = {}) => fetch(url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json", ...headers } });

describe("each kind fires and resolves, with exactly one signed notification each", () => {
  test("silence, auth_failures, run_failures and backlog", async () => {
    const s = await server();
    const quiet = await s.createTrigger({ name: "quiet", alerts: [{ kind: "silence", seconds: 1 }] });
    const guarded = await s.createTrigger({ name: "guarded", auth: { type: "bearer" }, alerts: [{ kind: "auth_failures", count: 2, seconds: 2 }] });
    const failing = await s.createTrigger({ name: "failing", workflow: { kind: "http", url: "http://127.0.0.1:9/down", retry: { maxAttempts: 1 } }, alerts: [{ kind: "run_failures", count: 1, seconds: 2 }] });

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
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async () => (await held, new Response("ok")) });
    cleanups.push(() => slow.stop(true));
    const s = await server();
    const t = await s.createTrigger({ name: "backlogged", workflow: { kind: "http", url: `http://127.0.0.1:${slow.port}/`, timeoutMs: 30_000 }, alerts: [{ kind: "backlog", count: 3 }] });
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
}, 30_000);

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
    const options = { databaseUrl: url, secretKey: newSecretKey(), adminToken: "alerts-admin-token-0123456789", args: ["--alert-url", alertUrl, "--alert-secret", SECRET, "--alert-interval", "1"] };
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
