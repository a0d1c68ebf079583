import { afterAll, beforeAll, expect, test } from "bun:test";
import slack from "../plugins/slack/index.ts";
import { pluginContext } from "../src/plugins/context.ts";
import { withPinnedClock } from "./support/clock.ts";
import { startTestServer, waitFor, type TestServer } from "./support/server.ts";

// Report-only rollout of authentication and allowed sources (README "Report-only rollout")
// through real HTTP; the caller here is 127.0.0.1.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--alert-interval", "1"]);
});
afterAll(async () => {
  await server.close();
});

const HOUR = 3_600_000;
const inHours = (hours: number, from = Date.now()) => new Date(from + hours * HOUR).toISOString();
const post = (url: string, headers: Record<string, string> = {}, body = '{"id":1}') =>
  fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });
const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];
const metrics = async () => (await fetch(`${server.url}/metrics`)).text();

test("report mode: a wrong secret gets 200 and a run marked unverified, a report-only row, the report metric, and the auth_failures alert counts it", async () => {
  const t = await server.createTrigger({
    name: "rollout",
    auth: { type: "bearer", mode: "report", reportUntil: inHours(24) },
    alerts: [{ kind: "auth_failures", count: 1, seconds: 300 }],
  });
  expect(t.auth).toMatchObject({ type: "bearer", mode: "report", reportUntil: expect.any(String) });

  const wrong = await post(t.url, { Authorization: "Bearer wrong" });
  expect(wrong.status).toBe(200);
  expect(await wrong.json()).toEqual({ received: true, request_id: wrong.headers.get("x-request-id") });
  const right = await post(t.url, { Authorization: `Bearer ${t.secret}` });
  expect(right.status).toBe(200);

  const [verified, unverified] = await runs(t.id);
  expect(unverified.trigger).toMatchObject({
    requestId: wrong.headers.get("x-request-id"),
    auth: { verified: false, reason: "wrong bearer token" },
    body: { id: 1 },
  });
  expect(verified.trigger.auth).toEqual({ verified: true });
  const rows = await server.activity(t.id);
  expect(rows.map((r) => [r.outcome, r.detail])).toEqual([
    ["run", null],
    ["run", "report-only: authentication failed: wrong bearer token"],
  ]);
  expect(await metrics()).toContain(`inlet_auth_failures_total{trigger="${t.id}",mode="report"} 1`);
  const alert = await waitFor(
    "the auth_failures alert fires",
    async () => {
      const alerts = (await server.api("GET", "/api/alerts")).body as any[];
      return alerts.find((a) => a.triggerId === t.id && a.state === "firing");
    },
    10_000,
  );
  expect(alert).toMatchObject({ kind: "auth_failures", value: 1, threshold: 1 });
}, 20_000);

test("after reportUntil the trigger enforces by itself: the uniform 401, counted as enforce", () =>
  withPinnedClock(async (clock) => {
    const t = await server.createTrigger({ name: "rollout-ends", auth: { type: "header", mode: "report", reportUntil: inHours(1, clock.now()) } });
    expect((await post(t.url, { "X-Webhook-Secret": "wrong" })).status).toBe(200);
    clock.advance(HOUR);
    const refused = await post(t.url, { "X-Webhook-Secret": "wrong" });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "authentication failed", request_id: refused.headers.get("x-request-id") });
    expect((await server.activity(t.id))[0]).toMatchObject({ outcome: "auth_failed", detail: "wrong secret in header X-Webhook-Secret" });
    const text = await metrics();
    expect(text).toContain(`inlet_auth_failures_total{trigger="${t.id}",mode="report"} 1`);
    expect(text).toContain(`inlet_auth_failures_total{trigger="${t.id}",mode="enforce"} 1`);
    // Enforcing again, a verified run carries no $trigger.auth, as on any enforcing trigger.
    expect((await post(t.url, { "X-Webhook-Secret": t.secret })).status).toBe(200);
    expect((await runs(t.id))[0].trigger).not.toContainKey("auth");
  }));

test("enforce (the default) is unchanged: 401, and a verified run has no $trigger.auth", async () => {
  const t = await server.createTrigger({ name: "enforced", auth: { type: "bearer" } });
  expect(t.auth.mode).toBeUndefined();
  expect((await post(t.url, { Authorization: "Bearer wrong" })).status).toBe(401);
  expect((await post(t.url, { Authorization: `Bearer ${t.secret}` })).status).toBe(200);
  const [run] = await runs(t.id);
  expect(run.trigger).not.toContainKey("auth");
  expect(run.trigger).not.toContainKey("sources");
});

test("sources in report mode: an address outside the list gets 200, $trigger.sources names it, and so does the row", async () => {
  const t = await server.createTrigger({ name: "sources-rollout", sources: { allow: ["192.0.2.0/24"], mode: "report", reportUntil: inHours(2) } });
  expect(t.sources).toEqual({ allow: ["192.0.2.0/24"], mode: "report", reportUntil: expect.any(String) });
  expect((await post(t.url)).status).toBe(200);
  const [run] = await runs(t.id);
  expect(run.trigger.sources).toEqual({ allowed: false, address: "127.0.0.1" });
  expect(run.trigger).not.toContainKey("auth");
  expect((await server.activity(t.id))[0]).toMatchObject({
    outcome: "run",
    detail: "report-only: source address 127.0.0.1 is not in the trigger's allowed sources",
  });
  // Back to enforce, by a change of mode alone: the list stays and refuses again.
  const enforced = await server.api("PATCH", `/api/triggers/${t.id}`, { sources: { mode: "enforce" } });
  expect(enforced.body.sources).toEqual({ allow: ["192.0.2.0/24"], mode: "enforce" });
  expect((await post(t.url)).status).toBe(403);
});

test("app triggers report too; their handshakes stay enforced", async () => {
  const t = await server.createTrigger({
    name: "slack-rollout",
    app: "slack",
    appSecret: "slack_signing_secret",
    auth: { mode: "report", reportUntil: inHours(3) },
  });
  expect(t.auth).toMatchObject({ type: "none", mode: "report" });
  const event = await post(
    t.url,
    { "X-Slack-Signature": "v0=forged", "X-Slack-Request-Timestamp": String(Math.floor(Date.now() / 1000)) },
    '{"type":"event_callback","event_id":"Ev1"}',
  );
  expect(event.status).toBe(200);
  expect((await runs(t.id))[0].trigger.auth).toEqual({ verified: false, reason: expect.any(String) });

  const challenge = JSON.stringify({ type: "url_verification", challenge: "c-123" });
  const signed = await slack.sign!(
    { method: "POST", url: t.url, rawBody: new TextEncoder().encode(challenge), headers: new Headers({ "content-type": "application/json" }) },
    pluginContext("wrong-secret", new Date()),
  );
  const forged = await fetch(t.url, { method: "POST", body: challenge, headers: { "content-type": "application/json", ...signed.headers } });
  expect(forged.status).toBe(401);
  expect((await server.activity(t.id))[0]).toMatchObject({ outcome: "auth_failed" });
});

test("saving: reportUntil required, in the future, at most 30 days ahead; report mode refused for type none and without sources", async () => {
  const refused = async (input: Record<string, unknown>) => {
    const r = await server.api("POST", "/api/triggers", { name: "bad", ...input });
    expect(r.status).toBe(400);
    return r.body.details.map((d: { path: string }) => d.path);
  };
  expect(await refused({ auth: { type: "bearer", mode: "report" } })).toEqual(["/auth/reportUntil"]);
  expect(await refused({ auth: { type: "bearer", mode: "report", reportUntil: inHours(-1) } })).toEqual(["/auth/reportUntil"]);
  expect(await refused({ auth: { type: "bearer", mode: "report", reportUntil: inHours(31 * 24) } })).toEqual(["/auth/reportUntil"]);
  expect(await refused({ auth: { type: "bearer", mode: "report", reportUntil: "next week" } })).toEqual(["/auth/reportUntil"]);
  expect(await refused({ auth: { type: "none", mode: "report", reportUntil: inHours(1) } })).toEqual(["/auth/mode"]);
  expect(await refused({ auth: { type: "bearer", mode: "audit" } })).toEqual(["/auth/mode"]);
  expect(await refused({ sources: { mode: "report", reportUntil: inHours(1) } })).toEqual(["/sources/mode"]);

  const t = await server.createTrigger({ name: "later", auth: { type: "basic" } });
  const patched = await server.api("PATCH", `/api/triggers/${t.id}`, { auth: { mode: "report", reportUntil: inHours(30 * 24 - 1) } });
  expect(patched.status).toBe(200);
  expect(patched.body.auth).toMatchObject({ type: "basic", mode: "report" });
});
