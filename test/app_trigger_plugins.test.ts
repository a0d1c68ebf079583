/**
 * The plugin API (docs/plugins.md) end to end, for what `app_triggers.test.ts` leaves open: the
 * delivery-id and content windows (and their defaults), hooks that throw, a written `handshake()`
 * and the methods that reach it, a generated secret for an external plugin, the public URL plugins
 * sign, the exact `GET /api/plugins` shape, and `inlet sign` / `inlet plugins list` for app
 * triggers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mailgunFixture from "../plugins/mailgun/fixture.ts";
import square from "../plugins/square/index.ts";
import twilio from "../plugins/twilio/index.ts";
import { pluginContext } from "../src/plugins/context.ts";
import type { InletPlugin } from "../src/plugins/types.ts";
import { withPinnedClock } from "./support/clock.ts";
import { cli } from "./support/process.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Plugins receive URLs built from here, whatever Host a request carries.
const PUBLIC = "http://hooks.example.test";
const pluginsDir = mkdtempSync(join(tmpdir(), "inlet-plugin-contract-"));
// Windows of its own, a written handshake() that uses ctx, and sign().
writeFileSync(
  join(pluginsDir, "acme-window.ts"),
  `const mac = (ctx, data) => ctx.hmac("sha256", ctx.secret, data, "hex");
const json = (bytes) => { try { return JSON.parse(new TextDecoder().decode(bytes)); } catch { return null; } };
export default {
  id: "acme-window", name: "Acme (windows)", secret: { label: "Signing secret", generated: false },
  verify: (req, ctx) => ctx.timingSafeEqual(req.headers.get("x-sig") ?? "", mac(ctx, req.rawBody)),
  deliveryId: (req) => req.headers.get("x-delivery"),
  dedupWindowSeconds: 60,
  contentDedupWindowSeconds: 30,
  event: (_req, body) => body?.kind ?? null,
  handshake(req, ctx) {
    if (req.method !== "POST") {
      const check = new URL(req.url).searchParams.get("check");
      return check ? new Response(check, { headers: { "content-type": "text/plain", "x-seen-url": req.url } }) : null;
    }
    const ping = json(req.rawBody)?.ping;
    return typeof ping === "string" ? Response.json({ pong: mac(ctx, ping) }) : null;
  },
  credentialHeaders: ["x-sig"],
  sign: (req, ctx) => ({ headers: { "x-sig": mac(ctx, req.rawBody) } }),
};\n`,
);
// Defaults only: generated secret, async verify over bytes, hooks that may throw, no handshake.
writeFileSync(
  join(pluginsDir, "acme-default.js"),
  `export default {
  id: "acme-default", name: "Acme (defaults)", secret: { label: "Token", generated: true },
  async verify(req, ctx) {
    await Promise.resolve();
    const key = ctx.base64.decode(ctx.base64.encode(new TextEncoder().encode(ctx.secret)));
    return ctx.now instanceof Date && ctx.timingSafeEqual(req.headers.get("x-acme-mac") ?? "", ctx.hmac("sha512", key, req.rawBody, "base64"));
  },
  deliveryId(req) {
    if (req.headers.has("x-boom")) throw new Error("boom");
    return req.headers.get("x-delivery") ?? JSON.parse(new TextDecoder().decode(req.rawBody)).id;
  },
  event(req, body) { if (req.headers.has("x-boom")) throw new Error("boom"); return body.kind; },
  credentialHeaders: ["x-acme-mac"],
};\n`,
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--plugins-dir", pluginsDir, "--base-url", PUBLIC]);
});
afterAll(async () => {
  await server.close();
  rmSync(pluginsDir, { recursive: true, force: true });
});

const hmac = (alg: "sha256" | "sha512", secret: string, body: string, encoding: "hex" | "base64") =>
  new Bun.CryptoHasher(alg, secret).update(body).digest(encoding);
const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];
const post = (url: string, body: string, headers: Record<string, string>) =>
  server.fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

/** Sends `body` with the headers (and URL) `plugin.sign()` makes for `url`. */
async function signedPost(plugin: InletPlugin, secret: string, url: string, body: string, contentType = "application/json") {
  const headers = new Headers({ "content-type": contentType });
  const signed = await plugin.sign!({ method: "POST", url, rawBody: new TextEncoder().encode(body), headers }, pluginContext(secret, new Date()));
  return server.fetch(signed.url ?? url, { method: "POST", body, headers: { "content-type": contentType, ...signed.headers } });
}

test("GET /api/plugins: exactly {id, name, secret: {label, generated}} per plugin (and settings where it declares some), --plugins-dir ones included", async () => {
  const { body } = await server.api("GET", "/api/plugins");
  for (const plugin of body) expect(Object.keys(plugin).sort()).toEqual(plugin.settings ? ["id", "name", "secret", "settings"] : ["id", "name", "secret"]);
  expect(body.find((p: any) => p.id === "acme-window")).toEqual({
    id: "acme-window",
    name: "Acme (windows)",
    secret: { label: "Signing secret", generated: false },
  });
  expect(body.find((p: any) => p.id === "acme-default")).toEqual({ id: "acme-default", name: "Acme (defaults)", secret: { label: "Token", generated: true } });
});

test("an external plugin with generated: true gets an inlet-made secret, which ctx.secret carries to its async verify", async () => {
  const t = await server.createTrigger({ name: "gen", app: "acme-default" });
  expect(t.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const body = JSON.stringify({ kind: "made" });
  const mac = hmac("sha512", t.secret, body, "base64");
  expect((await post(t.url, body, { "x-acme-mac": mac, "x-other": "kept" })).status).toBe(200);
  expect((await post(t.url, body, { "x-acme-mac": hmac("sha512", "another", body, "base64") })).status).toBe(401);
  const [run] = await runs(t.id);
  expect(run.trigger.app).toEqual({ id: "acme-default", event: "made", deliveryId: null });
  expect(run.trigger.headers["x-acme-mac"]).toBeUndefined();
  expect(run.trigger.headers["x-other"]).toBe("kept");
});

test("delivery ids are remembered for dedupWindowSeconds; without an id, the body's hash for contentDedupWindowSeconds", async () => {
  const t = await server.createTrigger({ name: "windows", app: "acme-window", appSecret: "w-secret" });
  const send = (body: string, delivery?: string) =>
    post(t.url, body, { "x-sig": hmac("sha256", "w-secret", body, "hex"), ...(delivery ? { "x-delivery": delivery } : {}) });
  const expectRuns = async (n: number) => expect(await runs(t.id)).toHaveLength(n);
  await withPinnedClock(async (clock) => {
    const start = clock.now();
    const at = (seconds: number) => clock.set(start + seconds * 1000);
    // By delivery id (60 s): a different body with the same id is still the same delivery.
    await send('{"n":1}', "d-1");
    at(59);
    await send('{"n":2}', "d-1");
    await expectRuns(1);
    at(61);
    await send('{"n":3}', "d-1");
    await expectRuns(2);
    // By content (30 s), only where there is no delivery id.
    at(100);
    await send('{"n":"same"}');
    at(129);
    await send('{"n":"same"}');
    await expectRuns(3);
    // An id wins over the content rule: the same body under new ids runs each time.
    await send('{"n":"same"}', "d-2");
    await send('{"n":"same"}', "d-3");
    await expectRuns(5);
    at(131);
    await send('{"n":"same"}');
    await expectRuns(6);
  });
  expect((await server.activity(t.id)).filter((r) => r.outcome === "deduplicated")).toHaveLength(2);
});

test("defaults: delivery ids are remembered 86400 s; no contentDedupWindowSeconds means no content dedup; throwing hooks mean none", async () => {
  const t = await server.createTrigger({ name: "defaults", app: "acme-default" });
  const send = (body: string, headers: Record<string, string> = {}) =>
    post(t.url, body, { "x-acme-mac": hmac("sha512", t.secret, body, "base64"), ...headers });
  await withPinnedClock(async (clock) => {
    const start = clock.now();
    await send('{"kind":"a"}', { "x-delivery": "d-1" });
    clock.set(start + 86_399_000);
    await send('{"kind":"a"}', { "x-delivery": "d-1" });
    expect(await runs(t.id)).toHaveLength(1);
    clock.set(start + 86_401_000);
    await send('{"kind":"a"}', { "x-delivery": "d-1" });
    expect(await runs(t.id)).toHaveLength(2);
  });
  await send('{"kind":"b"}');
  await send('{"kind":"b"}');
  expect(await runs(t.id)).toHaveLength(4);
  // deliveryId() and event() throw: the request still runs, with neither.
  const boom = await send('{"kind":"c"}', { "x-boom": "1", "x-delivery": "d-9" });
  expect(boom.status).toBe(200);
  const [latest] = await runs(t.id);
  expect(latest.trigger.app).toEqual({ id: "acme-default", event: null, deliveryId: null });
});

test("$trigger.app holds text: a numeric event or delivery id becomes its string, any other non-string none", async () => {
  const t = await server.createTrigger({ name: "odd-values", app: "acme-default" });
  const send = (body: string) => post(t.url, body, { "x-acme-mac": hmac("sha512", t.secret, body, "base64") });
  for (const body of ['{"id":42,"kind":7}', '{"id":{"n":1},"kind":["a"]}', '{"id":{"n":2},"kind":true}', '{"id":42,"kind":8}'])
    expect((await send(body)).status).toBe(200);
  // Object ids are no ids: they never collapse two deliveries into one dedup key.
  expect((await runs(t.id)).map((run) => run.trigger.app)).toEqual([
    { id: "acme-default", event: null, deliveryId: null },
    { id: "acme-default", event: null, deliveryId: null },
    { id: "acme-default", event: "7", deliveryId: "42" },
  ]);
});

test("a written handshake(): a POST is answered only once verified, with ctx; GET and HEAD reach only the handshake", async () => {
  const t = await server.createTrigger({ name: "hs", app: "acme-window", appSecret: "h-secret" });
  const ping = JSON.stringify({ ping: "p-1" });
  expect((await post(t.url, ping, { "x-sig": hmac("sha256", "wrong", ping, "hex") })).status).toBe(401);
  const answered = await post(t.url, ping, { "x-sig": hmac("sha256", "h-secret", ping, "hex") });
  expect(answered.status).toBe(200);
  expect(await answered.json()).toEqual({ pong: hmac("sha256", "h-secret", "p-1", "hex") });
  expect(answered.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

  const check = await server.fetch(`${t.url}?check=abc`);
  expect(check.status).toBe(200);
  expect(await check.text()).toBe("abc");
  // The public URL from --base-url, query included.
  expect(check.headers.get("x-seen-url")).toBe(`${PUBLIC}/webhooks/${t.token}?check=abc`);
  expect((await server.fetch(`${t.url}?check=abc`, { method: "HEAD" })).status).toBe(200);
  for (const [method, query] of [
    ["GET", ""],
    ["HEAD", "?other=1"],
    ["PUT", "?check=abc"],
    ["DELETE", ""],
  ]) {
    const refused = await server.fetch(t.url + query, { method });
    expect([method, refused.status, refused.headers.get("allow")]).toEqual([method, 405, expect.stringContaining("POST")]);
  }
  expect(await runs(t.id)).toHaveLength(0);
  const outcomes = (await server.activity(t.id)).map((r) => r.outcome);
  expect(outcomes.filter((o) => o === "filtered")).toHaveLength(3);
  expect(outcomes.filter((o) => o === "auth_failed")).toHaveLength(1);

  // A plugin without a handshake takes POST only.
  const plain = await server.createTrigger({ name: "plain", app: "acme-default" });
  for (const method of ["GET", "HEAD"]) {
    const refused = await server.fetch(`${plain.url}?check=abc`, { method });
    expect([refused.status, refused.headers.get("allow")]).toEqual([405, "POST"]);
  }
});

test("URL-signing recipes get the public URL from --base-url with the query, never one built from Host", async () => {
  expect(server.url.startsWith(PUBLIC)).toBe(false);
  const tw = await server.createTrigger({ name: "twilio", app: "twilio", appSecret: "tw-token" });
  expect(tw.url).toBe(`${PUBLIC}/webhooks/${tw.token}`);
  const form = "From=%2B14158675309&Body=hello+there&MessageSid=SM1";
  expect((await signedPost(twilio, "tw-token", `${tw.url}?tenant=7`, form, "application/x-www-form-urlencoded")).status).toBe(200);
  // Signed for the address the request really reached: not what Twilio signs.
  const local = `${server.url}/webhooks/${tw.token}?tenant=7`;
  expect((await signedPost(twilio, "tw-token", local, form, "application/x-www-form-urlencoded")).status).toBe(401);
  // JSON: Twilio moves the body's hash into the URL it signs.
  expect((await signedPost(twilio, "tw-token", tw.url, '{"EventType":"x"}')).status).toBe(200);
  const [json, formRun] = await runs(tw.id);
  expect(formRun.trigger.query).toEqual({ tenant: "7" });
  expect(json.trigger.app.event).toBe("x");

  const sq = await server.createTrigger({ name: "square", app: "square", appSecret: "sq_sig_key" });
  const body = JSON.stringify({ event_id: "e-1", type: "payment.created" });
  expect((await signedPost(square, "sq_sig_key", sq.url, body)).status).toBe(200);
  expect((await signedPost(square, "sq_sig_key", `${server.url}/webhooks/${sq.token}`, body)).status).toBe(401);
});

test("inlet sign prints a curl that a trigger accepts, by the plugin's own sign(); inlet plugins list lists --plugins-dir plugins", async () => {
  const flags = ["--data-dir", server.dataDir, "--plugins-dir", pluginsDir];
  const acme = await server.createTrigger({ name: "cli-acme", app: "acme-window", appSecret: "c-secret" });
  const tw = await server.createTrigger({ name: "cli-twilio", app: "twilio", appSecret: "tw-token" });
  const mg = await server.createTrigger({ name: "cli-mailgun", app: "mailgun", appSecret: mailgunFixture.appSecret });
  const unsignable = await server.createTrigger({ name: "cli-no-sign", app: "acme-default" });
  const bodyFile = join(pluginsDir, "body.json.txt");
  writeFileSync(bodyFile, mailgunFixture.body);
  const port = new URL(server.url).port;
  const [listed, refused, ...signed] = await Promise.all([
    cli(["plugins", "list", ...flags]),
    cli(["sign", unsignable.id, "--body", bodyFile, ...flags]),
    ...[acme, tw, mg].map((t) => cli(["sign", t.id, "--body", bodyFile, "--base-url", PUBLIC, ...flags])),
  ]);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout)).toContainEqual(
    expect.objectContaining({ id: "acme-window", name: "Acme (windows)", secret: { label: "Signing secret", generated: false } }),
  );
  for (const [i, t] of [acme, tw, mg].entries()) {
    expect(signed[i].code).toBe(0);
    // The public host, reached at this server.
    const curl = Bun.spawn(["bash", "-c", `${signed[i].stdout.trim()} --connect-to hooks.example.test:80:127.0.0.1:${port} -o /dev/null -w '%{http_code}'`], {
      stdout: "pipe",
    });
    expect([t.app, await new Response(curl.stdout).text()]).toEqual([t.app, "200"]);
    expect(await runs(t.id)).toHaveLength(1);
  }
  expect(signed[0].stdout).toContain("x-sig: ");
  expect(signed[1].stdout).toContain("bodySHA256=");
  expect(signed[2].stdout).toContain("--data-raw");
  // A plugin without sign(): a one-line reason, not a curl that would be refused.
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toBe("inlet: plugin acme-default cannot sign requests\n");
});
