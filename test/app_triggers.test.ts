import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import githubFixture from "../plugins/github/fixture.ts";
import github from "../plugins/github/index.ts";
import slack from "../plugins/slack/index.ts";
import stripe from "../plugins/stripe/index.ts";
import stripeFixture from "../plugins/stripe/fixture.ts";
import { pluginContext } from "../src/plugins/context.ts";
import type { InletPlugin } from "../src/plugins/types.ts";
import { BUN, ROOT } from "./support/process.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
const pluginsDir = mkdtempSync(join(tmpdir(), "inlet-plugins-"));
writeFileSync(
  join(pluginsDir, "acme.ts"),
  `export default {
    id: "acme", name: "Acme", secret: { label: "Signing secret", generated: false },
    verify: (req, ctx) => ctx.timingSafeEqual(req.headers.get("x-acme-signature") ?? "", ctx.hmac("sha256", ctx.secret, req.rawBody, "hex")),
    deliveryId: (req) => req.headers.get("x-acme-delivery"),
    event: (_req, body) => body?.kind ?? null,
    credentialHeaders: ["X-Acme-Signature"],
  };\n`,
);
beforeAll(async () => {
  server = await startTestServer({}, ["--plugins-dir", pluginsDir]);
});
afterAll(async () => {
  await server.close();
  rmSync(pluginsDir, { recursive: true, force: true });
});

/** Sends what `plugin.sign()` produces for `body` to the trigger. */
async function deliver(plugin: InletPlugin, trigger: any, secret: string, body: string, headers: Record<string, string> = {}, now = new Date()) {
  const base = { "content-type": "application/json", ...headers };
  const signed = await plugin.sign!(
    { method: "POST", url: trigger.url, rawBody: new TextEncoder().encode(body), headers: new Headers(base) },
    pluginContext(secret, now),
  );
  return server.fetch(signed.url ?? trigger.url, {
    method: "POST",
    body: signed.rawBody ? new Blob([signed.rawBody as Uint8Array<ArrayBuffer>]) : body,
    headers: { ...base, ...signed.headers },
  });
}

const hmacHex = (secret: string, body: string) => new Bun.CryptoHasher("sha256", secret).update(body).digest("hex");
const activity = (id: string) => server.activity(id);
const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];

test("every built-in plugin and the --plugins-dir one are listed", async () => {
  const { body } = await server.api("GET", "/api/plugins");
  const ids = body.map((p: any) => p.id);
  for (const id of "github gitlab bitbucket stripe paddle square shopify slack discord twilio sendgrid mailgun mailchimp mandrill postmark standard-webhooks svix clerk resend openai linear jira pagerduty sentry zoom hubspot intercom typeform calendly twitch vercel notion asana dropbox gcp-pubsub aws-sns acme".split(
    " ",
  )) {
    expect(ids).toContain(id);
  }
  expect(body.find((p: any) => p.id === "github").secret).toEqual({ label: expect.any(String), generated: true });
});

describe("GitHub: generated secret, delivery-id dedup, event, credential headers removed", () => {
  test("a signed delivery runs once; its redelivery is Deduplicated", async () => {
    const t = await server.createTrigger({ name: "gh", app: "github" });
    expect(t.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const first = await deliver(github, t, t.secret, githubFixture.body, githubFixture.headers);
    expect(first.status).toBe(200);
    const again = await deliver(github, t, t.secret, githubFixture.body, githubFixture.headers);
    expect(again.status).toBe(200);
    expect((await again.json()).received).toBe(true);
    const [run, ...rest] = await runs(t.id);
    expect(rest).toHaveLength(0);
    expect(run.trigger.app).toEqual({ id: "github", event: githubFixture.event, deliveryId: githubFixture.deliveryId });
    for (const h of github.credentialHeaders ?? []) expect(run.trigger.headers[h]).toBeUndefined();
    expect((await activity(t.id)).map((r) => r.label)).toEqual(["Deduplicated", "Run"]);
    const forged = await server.fetch(t.url, {
      method: "POST",
      body: githubFixture.body,
      headers: { ...githubFixture.headers, "x-hub-signature-256": "sha256=" + "0".repeat(64) },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: "authentication failed", request_id: forged.headers.get("x-request-id") });
  });
});

describe("Stripe: pasted secret, tolerance enforced by the host", () => {
  test("fresh passes; 10 minutes old and 10 minutes ahead fail with the reason in Activity", async () => {
    const t = await server.createTrigger({ name: "stripe", app: "stripe", appSecret: stripeFixture.appSecret });
    expect(t.secret).toBeNull();
    expect(t.auth.hasSecret).toBe(true);
    expect((await deliver(stripe, t, stripeFixture.appSecret, stripeFixture.body)).status).toBe(200);
    const stale = await deliver(
      stripe,
      t,
      stripeFixture.appSecret,
      stripeFixture.body.replace(stripeFixture.deliveryId!, "evt_other1"),
      {},
      new Date(Date.now() - 600_000),
    );
    expect(stale.status).toBe(401);
    const future = await deliver(
      stripe,
      t,
      stripeFixture.appSecret,
      stripeFixture.body.replace(stripeFixture.deliveryId!, "evt_other2"),
      {},
      new Date(Date.now() + 600_000),
    );
    expect(future.status).toBe(401);
    const details = (await activity(t.id)).map((r) => r.detail ?? "");
    expect(details.some((d) => d.includes("too old"))).toBe(true);
    expect(details.some((d) => d.includes("in the future"))).toBe(true);
  });
});

describe("a plugin that declares a tolerance: a delivery without its timestamp is a 401", () => {
  // Linear signs the body only; the timestamp it declares a tolerance for is the body's webhookTimestamp.
  test("Linear: signed, but no or a malformed webhookTimestamp", async () => {
    const t = await server.createTrigger({ name: "linear-ts", app: "linear", appSecret: "lin_wh_secret" });
    const send = (body: Record<string, unknown>) => {
      const raw = JSON.stringify({ type: "Issue", action: "create", ...body });
      return server.fetch(t.url, {
        method: "POST",
        body: raw,
        headers: { "Content-Type": "application/json", "Linear-Signature": hmacHex("lin_wh_secret", raw) },
      });
    };
    expect((await send({ webhookTimestamp: Date.now() })).status).toBe(200);
    for (const stamp of [{}, { webhookTimestamp: "now" }]) {
      const r = await send(stamp);
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ error: "authentication failed", request_id: r.headers.get("x-request-id") });
      expect((await activity(t.id))[0]).toMatchObject({ outcome: "auth_failed", detail: "linear timestamp missing or malformed" });
    }
    expect(await runs(t.id)).toHaveLength(1);
  });
});

test("Slack url_verification: answered only when signed, and never a run", async () => {
  const t = await server.createTrigger({ name: "slack", app: "slack", appSecret: "slack_signing_secret" });
  const body = JSON.stringify({ token: "x", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P", type: "url_verification" });
  const ok = await deliver(slack, t, "slack_signing_secret", body);
  expect(ok.status).toBe(200);
  expect(ok.headers.get("x-request-id")).toBeTruthy();
  expect((await ok.json()).challenge).toBe("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P");
  const forged = await deliver(slack, t, "wrong-secret", body);
  expect(forged.status).toBe(401);
  expect(await runs(t.id)).toHaveLength(0);
  const rows = await activity(t.id);
  expect(rows.map((r) => r.outcome).sort()).toEqual(["auth_failed", "filtered"]);
});

test("Mailchimp: no secret, GET URL check, content-hash dedup across deliveries", async () => {
  const t = await server.createTrigger({ name: "mc", app: "mailchimp" });
  expect((await server.fetch(t.url, { method: "GET" })).status).toBe(200);
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  const body = "type=subscribe&fired_at=2026-11-21+09%3A00%3A00&data%5Bemail%5D=ada%40example.com";
  expect((await server.fetch(t.url, { method: "POST", body, headers: form })).status).toBe(200);
  expect((await server.fetch(t.url, { method: "POST", body, headers: form })).status).toBe(200);
  expect((await server.fetch(t.url, { method: "POST", body: body + "&x=1", headers: form })).status).toBe(200);
  expect(await runs(t.id)).toHaveLength(2);
  expect((await activity(t.id)).filter((r) => r.outcome === "deduplicated")).toHaveLength(1);
  expect((await server.fetch(t.url, { method: "PUT", body })).status).toBe(405);
});

test("Dropbox GET challenge is echoed as text/plain", async () => {
  const t = await server.createTrigger({ name: "dbx", app: "dropbox", appSecret: "dropbox-app-secret" });
  const r = await server.fetch(`${t.url}?challenge=abc123XYZ`);
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toStartWith("text/plain");
  expect(await r.text()).toBe("abc123XYZ");
});

test("an external --plugins-dir plugin works end to end", async () => {
  const t = await server.createTrigger({ name: "acme", app: "acme", appSecret: "acme-secret" });
  const body = JSON.stringify({ kind: "widget.created", id: 7 });
  const signature = hmacHex("acme-secret", body);
  const send = () =>
    server.fetch(t.url, { method: "POST", body, headers: { "Content-Type": "application/json", "X-Acme-Signature": signature, "X-Acme-Delivery": "d-1" } });
  expect((await send()).status).toBe(200);
  expect((await send()).status).toBe(200);
  const [run, ...rest] = await runs(t.id);
  expect(rest).toHaveLength(0);
  expect(run.trigger.app).toEqual({ id: "acme", event: "widget.created", deliveryId: "d-1" });
  expect(run.trigger.headers["x-acme-signature"]).toBeUndefined();
});

test("app triggers refuse dedup settings, generic auth and unknown apps", async () => {
  const dedup = await server.api("POST", "/api/triggers", { name: "x", app: "github", dedup: { strategy: "payload-hash" } });
  expect(dedup.status).toBe(400);
  expect(dedup.body.details[0].path).toBe("/dedup");
  expect((await server.api("POST", "/api/triggers", { name: "x", app: "github", auth: { type: "bearer" } })).status).toBe(400);
  expect((await server.api("POST", "/api/triggers", { name: "x", app: "nope" })).body.details[0].path).toBe("/app");
  const t = await server.createTrigger({ name: "x", app: "github" });
  expect((await server.api("PATCH", `/api/triggers/${t.id}`, { app: "stripe" })).status).toBe(400);
});

test("a broken plugin stops the start with a message naming the file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-badplugin-"));
  try {
    writeFileSync(join(dir, "broken.ts"), "export default { id: 'Bad Id', name: 'x' };\n");
    const proc = Bun.spawn([BUN, "run", join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data-dir", join(dir, "data"), "--plugins-dir", dir], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(join(dir, "broken.ts"));
    expect(stderr.trim().split("\n")).toHaveLength(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
