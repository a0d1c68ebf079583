/**
 * The host's facilities for plugins (docs/plugins.md#settings,
 * docs/plugins.md#fetching-from-the-provider) end to end, with a tiny plugin from --plugins-dir
 * that reads `ctx.settings` and fetches its signing key with `ctx.fetchText` from the URL the
 * request names (as SNS names its certificate): appSettings through the API (defaults, 400 details,
 * PATCH, GET /api/plugins), a key host allowed by --provider-fetch-allow (fetched once, cached), a
 * host outside the rule (401, nothing fetched), and an allowed host that is down (503 with
 * Retry-After, an `error` row naming the host, never a 200 or a 401) — from verify() and from
 * handshake() alike.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, UUID, type TestServer } from "./support/server.ts";

const KEY = "provider-signing-key-0123456789";
const PUBLIC = "https://hooks.example.test";
const hits: string[] = [];
const keyHost = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const url = new URL(request.url);
    hits.push(`${request.method} ${url.pathname}`);
    if (url.pathname === "/confirm") return new Response("<ConfirmSubscriptionResponse/>");
    return url.pathname === "/key" ? new Response(KEY) : new Response("no", { status: 404 });
  },
});
// A host allowed by the flag that is down: bound once for a port nobody listens on, then stopped.
const downHost = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("up") });
const DOWN = `127.0.0.1:${downHost.port}`;
downHost.stop(true);
const UP = `127.0.0.1:${keyHost.port}`;

const pluginsDir = mkdtempSync(join(tmpdir(), "inlet-app-settings-"));
writeFileSync(
  join(pluginsDir, "keyed.js"),
  `const RULE = { hosts: /^keys\\.provider\\.test$/, purpose: "signing key" };
export default {
  id: "keyed", name: "Keyed", secret: { label: "None needed: the key is fetched", generated: false },
  settings: [
    { key: "senders", label: "Senders", kind: "lines", help: "One sender id per line",
      check: (v) => (v.length ? null : "add at least one sender"),
      checkLine: (line) => (/^[a-z]+$/.test(line) ? null : "is not a sender id (a-z)") },
    { key: "greeting", label: "Greeting", kind: "text", default: "hello" },
    { key: "confirm", label: "Confirm subscriptions", kind: "switch" },
    { key: "audience", label: "Audience", kind: "text",
      check: (v, ctx) => (v === "" || v === ctx.triggerUrl ? null : "must be empty or this trigger's URL, " + ctx.triggerUrl) },
  ],
  async verify(req, ctx) {
    let key;
    try {
      key = await ctx.fetchText(req.headers.get("x-key-url") ?? "", RULE);
    } catch (error) {
      // A URL outside the rule is a forged request (the host notes why); an unavailable host is a 503.
      if (error.code === "provider_fetch_refused") return false;
      throw error;
    }
    const mac = ctx.hmac("sha256", key, req.rawBody, "hex");
    return ctx.settings.senders.includes(req.headers.get("x-sender")) && ctx.timingSafeEqual(req.headers.get("x-sig") ?? "", mac);
  },
  async handshake(req, ctx) {
    const url = req.headers.get("x-confirm-url");
    if (!url || ctx.settings.confirm !== true) return null;
    await ctx.confirmUrl(url, { ...RULE, purpose: "subscription confirmation" });
    return Response.json({ confirmed: true, greeting: ctx.settings.greeting });
  },
  credentialHeaders: ["x-sig"],
};\n`,
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--plugins-dir", pluginsDir, "--provider-fetch-allow", `${UP},${DOWN}`, "--base-url", PUBLIC]);
});
afterAll(async () => {
  await server.close();
  keyHost.stop(true);
  rmSync(pluginsDir, { recursive: true, force: true });
});

const sig = (body: string) => new Bun.CryptoHasher("sha256", KEY).update(body).digest("hex");
const send = (url: string, body: string, headers: Record<string, string>) =>
  server.fetch(url, { method: "POST", body, headers: { "content-type": "application/json", "x-sender": "acme", "x-sig": sig(body), ...headers } });

test("GET /api/plugins lists a plugin's settings (key, label, kind, help, default); plugins without settings have no settings field", async () => {
  const { body } = await server.api("GET", "/api/plugins");
  expect(body.find((p: any) => p.id === "keyed")).toEqual({
    id: "keyed",
    name: "Keyed",
    secret: { label: "None needed: the key is fetched", generated: false },
    settings: [
      { key: "senders", label: "Senders", kind: "lines", help: "One sender id per line", default: [] },
      { key: "greeting", label: "Greeting", kind: "text", default: "hello" },
      { key: "confirm", label: "Confirm subscriptions", kind: "switch", default: false },
      { key: "audience", label: "Audience", kind: "text", default: "" },
    ],
  });
  expect(Object.keys(body.find((p: any) => p.id === "github")).sort()).toEqual(["id", "name", "secret"]);
});

test("appSettings: stored with defaults filled, shown on the Trigger, PATCH-able key by key; refused with details at their paths", async () => {
  const created = await server.api("POST", "/api/triggers", { name: "keyed", app: "keyed", appSettings: { senders: ["acme"] } });
  expect(created.status).toBe(201);
  expect(created.body.appSettings).toEqual({ senders: ["acme"], greeting: "hello", confirm: false, audience: "" });
  const patched = await server.api("PATCH", `/api/triggers/${created.body.id}`, { appSettings: { confirm: true, greeting: null, audience: created.body.url } });
  expect(patched.body.appSettings).toEqual({ senders: ["acme"], greeting: "hello", confirm: true, audience: created.body.url });
  // Checks see the trigger's own URL (from --base-url), on create as on change.
  expect((await server.api("PATCH", `/api/triggers/${created.body.id}`, { appSettings: { audience: "https://elsewhere.example" } })).body.details).toEqual([
    { path: "/appSettings/audience", message: `must be empty or this trigger's URL, ${created.body.url}` },
  ]);
  expect(created.body.url).toStartWith(PUBLIC);
  expect((await server.api("GET", `/api/triggers/${created.body.id}`)).body.appSettings).toEqual(patched.body.appSettings);

  const bad = await server.api("POST", "/api/triggers", {
    name: "k",
    app: "keyed",
    appSettings: { senders: ["acme", "Not Valid"], confirm: "yes", colour: "red" },
  });
  expect(bad.status).toBe(400);
  expect(bad.body.details).toEqual([
    { path: "/appSettings/colour", message: expect.stringContaining("is not a setting of Keyed") },
    { path: "/appSettings/senders/1", message: "is not a sender id (a-z)" },
    { path: "/appSettings/confirm", message: "must be true or false (Confirm subscriptions)" },
  ]);
  expect((await server.api("POST", "/api/triggers", { name: "k", app: "keyed" })).body.details).toEqual([
    { path: "/appSettings/senders", message: "add at least one sender" },
  ]);
  expect((await server.api("PATCH", `/api/triggers/${created.body.id}`, { appSettings: { senders: [] } })).status).toBe(400);
  const generic = await server.api("POST", "/api/triggers", { name: "g", appSettings: { senders: ["acme"] } });
  expect(generic.status).toBe(400);
  expect(generic.body.details).toEqual([{ path: "/appSettings", message: expect.stringContaining("app triggers only") }]);
  expect((await server.api("POST", "/api/triggers", { name: "gh", app: "github", appSettings: { senders: ["acme"] } })).body.details).toEqual([
    { path: "/appSettings/senders", message: "is not a setting of GitHub (it has none)" },
  ]);
  // A generic or settings-less app trigger carries no appSettings at all.
  expect((await server.createTrigger({ name: "plain" })).appSettings).toBeUndefined();
});

test("the OpenAPI document describes appSettings on TriggerInput, TriggerPatch and Trigger, and a plugin's settings", async () => {
  const doc = (await server.api("GET", "/api/openapi.json")).body;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: "doc", components: doc.components });
  const valid = (name: string, value: unknown) => ajv.validate({ $ref: `doc#/components/schemas/${name}` }, value);
  expect(doc.components.schemas.TriggerInput.properties.appSettings).toBeDefined();
  expect(doc.components.schemas.TriggerPatch.properties.appSettings).toBeDefined();
  const t = await server.createTrigger({ name: "documented", app: "keyed", appSettings: { senders: ["acme"] } });
  const { secret, ...trigger } = t;
  expect(valid("Trigger", trigger)).toBe(true);
  expect(valid("Trigger", { ...trigger, appSettings: { senders: [1] } })).toBe(false);
  for (const plugin of (await server.api("GET", "/api/plugins")).body) expect(valid("Plugin", plugin)).toBe(true);
});

test("a key from a --provider-fetch-allow host verifies the request with the trigger's settings; it is fetched once, then cached", async () => {
  const t = await server.createTrigger({ name: "keyed-ok", app: "keyed", appSettings: { senders: ["acme"] } });
  hits.length = 0;
  const keyUrl = `http://${UP}/key`;
  for (const n of [1, 2]) {
    const response = await send(t.url, JSON.stringify({ n }), { "x-key-url": keyUrl });
    expect(response.status).toBe(200);
  }
  expect(hits).toEqual(["GET /key"]);
  // ctx.settings decides too: a sender the trigger does not list is the uniform 401.
  expect((await send(t.url, "{}", { "x-key-url": keyUrl, "x-sender": "other" })).status).toBe(401);
});

test("a key URL outside the rule: the uniform 401, nothing fetched, and the reason in Activity", async () => {
  const t = await server.createTrigger({ name: "keyed-refused", app: "keyed", appSettings: { senders: ["acme"] } });
  hits.length = 0;
  for (const keyUrl of [`http://127.0.0.1:1/key`, "http://keys.provider.test/key", "https://keys.evil.test/key"]) {
    const response = await send(t.url, "{}", { "x-key-url": keyUrl });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "authentication failed", request_id: response.headers.get("x-request-id") });
  }
  expect(hits).toEqual([]);
  const details = (await server.activity(t.id)).map((row) => `${row.outcome}: ${row.detail}`);
  expect(details).toContain(
    "auth_failed: keyed signature missing or invalid (signing key: keys.evil.test is not one of the provider's hosts (only https URLs on the provider's hosts are fetched, or a host:port of --provider-fetch-allow))",
  );
  expect(details.some((d) => d.includes("http://keys.provider.test/key is not https"))).toBe(true);
  expect(details.some((d) => d.includes("http://127.0.0.1:1/key is not https"))).toBe(true);
});

test("an allowed key host that is down: 503 unavailable with Retry-After, an error row naming the host; meanwhile it is not fetched again", async () => {
  const t = await server.createTrigger({ name: "keyed-down", app: "keyed", appSettings: { senders: ["acme"] } });
  const keyUrl = `http://${DOWN}/key`;
  const first = await send(t.url, "{}", { "x-key-url": keyUrl });
  expect(first.status).toBe(503);
  expect(first.headers.get("retry-after")).toBe("30");
  const requestId = first.headers.get("x-request-id");
  expect(requestId).toMatch(UUID);
  expect(await first.json()).toEqual({ error: "unavailable", request_id: requestId });
  const again = await send(t.url, "{}", { "x-key-url": keyUrl });
  expect(again.status).toBe(503);
  expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
  const rows = await server.activity(t.id);
  expect(rows.map((r) => r.outcome)).toEqual(["error", "error"]);
  expect(rows[1]).toMatchObject({ requestId, label: "Error" });
  expect(rows[1].detail).toStartWith(`provider host ${DOWN} unavailable: signing key from http://${DOWN}/key failed:`);
  expect(rows[0].detail).toContain("not fetched again before");
  expect((await server.api("GET", `/api/runs?triggerId=${t.id}`)).body).toEqual([]);
});

test("handshake(): confirmUrl GETs an allowed URL; one on a host that is down is a 503 too, not a 401", async () => {
  const t = await server.createTrigger({ name: "keyed-confirm", app: "keyed", appSettings: { senders: ["acme"], confirm: true, greeting: "hi" } });
  hits.length = 0;
  const ok = await send(t.url, "{}", { "x-key-url": `http://${UP}/key`, "x-confirm-url": `http://${UP}/confirm?Token=abc` });
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ confirmed: true, greeting: "hi" });
  expect(hits).toContain("GET /confirm");
  const down = await send(t.url, "{}", { "x-key-url": `http://${UP}/key`, "x-confirm-url": `http://${DOWN}/confirm?Token=abc` });
  expect(down.status).toBe(503);
  expect(down.headers.get("retry-after")).toBe("30");
  const [row] = await server.activity(t.id);
  expect(row.outcome).toBe("error");
  expect(row.detail).toStartWith(`provider host ${DOWN} unavailable: subscription confirmation from http://${DOWN}/confirm failed:`);
  expect(row.detail).not.toContain("Token=abc");
});
