/**
 * Google Pub/Sub push end to end (README "Google Pub/Sub push"): a server whose
 * --provider-fetch-allow lets it fetch the JWKS of a local stand-in for Google, tokens signed with
 * the stand-in's key as Pub/Sub signs them, and the trigger's appSettings naming the stand-in's
 * JWKS URL and the service account. A valid push runs with message.data decoded; a redelivery is
 * deduplicated; every refused token is the uniform 401 with the reason in Activity; a key host
 * that is down is a 503 with Retry-After; a JWKS URL on a host outside the rule is refused at save.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT, UnsecuredJWT } from "jose";
import { googleStandIn, type GoogleStandIn } from "../plugins/gcp-pubsub/google_stand_in.ts";
import { keyIdOf } from "../plugins/gcp-pubsub/key_id.ts";
import { signedCurl } from "../src/cli/sign.ts";
import { ADMIN_TOKEN, eventually, startTestServer, UUID, type TestServer } from "./support/server.ts";

const PUBLIC = "https://hooks.acme.example";
const EMAIL = "pubsub-push@acme-prod.iam.gserviceaccount.com";
let google: GoogleStandIn;
let down: GoogleStandIn;
let server: TestServer;
let key: KeyObject;

beforeAll(async () => {
  [google, down] = await Promise.all([googleStandIn(), googleStandIn()]);
  down.up = false;
  key = createPrivateKey(google.privatePem);
  server = await startTestServer({}, ["--provider-fetch-allow", `${google.hostPort},${down.hostPort}`, "--base-url", PUBLIC]);
});
afterAll(async () => {
  await server.close();
  google.stop();
  down.stop();
});

const seconds = () => Math.floor(Date.now() / 1000);
async function token(audience: string, claims: Record<string, unknown> = {}, signer: KeyObject = key) {
  const now = seconds();
  return new SignJWT({
    aud: audience,
    azp: "113774264463038321964",
    email: EMAIL,
    email_verified: true,
    iss: "https://accounts.google.com",
    sub: "113774264463038321964",
    iat: now,
    exp: now + 3600,
    ...claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: await keyIdOf(signer), typ: "JWT" })
    .sign(signer);
}
const envelope = (data: string, messageId: string, attributes: Record<string, string> = {}) =>
  JSON.stringify({
    message: { attributes, data, messageId, message_id: messageId, publishTime: "2025-06-15T15:06:40.512Z" },
    subscription: "projects/acme-prod/subscriptions/inlet",
  });
const b64 = (text: string) => Buffer.from(text).toString("base64");
const push = (url: string, body: string, bearer: string | null) =>
  server.fetch(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "user-agent": "APIs-Google", ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) },
  });
const pubsubTrigger = (name: string, appSettings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  server.createTrigger({ name, app: "gcp-pubsub", appSettings: { serviceAccountEmail: EMAIL, jwksUrl: google.jwksUrl, ...appSettings }, ...extra });
const runsOf = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];

test("GET /api/plugins lists gcp-pubsub with its settings; a trigger's curl carries no token", async () => {
  const plugin = (await server.api("GET", "/api/plugins")).body.find((p: any) => p.id === "gcp-pubsub");
  expect(plugin.settings.map((s: any) => [s.key, s.label, s.kind, s.default])).toEqual([
    ["audience", "Audience", "text", ""],
    ["serviceAccountEmail", "Service account email", "text", ""],
    ["jwksUrl", "JWKS URL", "text", ""],
  ]);
  const t = await pubsubTrigger("curl");
  expect(t.appSettings).toEqual({ audience: "", serviceAccountEmail: EMAIL, jwksUrl: google.jwksUrl });
  expect(t.curl).not.toContain("Authorization");
});

test("a valid push runs with message.data decoded (JSON), the raw data kept, the token kept out of $trigger; its redelivery is deduplicated", async () => {
  const t = await pubsubTrigger("orders");
  expect(t.url).toStartWith(`${PUBLIC}/webhooks/`);
  const data = b64('{"orderId":9007199254740993,"status":"paid"}');
  const body = envelope(data, "14790134552118432", { eventType: "order.paid" });
  const first = await push(t.url, body, await token(t.url));
  expect(first.status).toBe(200);
  expect(await first.json()).toEqual({ received: true, request_id: expect.stringMatching(UUID) });
  // Pub/Sub's retry carries a fresh token for the same message.
  const again = await push(t.url, body, await token(t.url, { iat: seconds() + 1 }));
  expect(again.status).toBe(200);
  const [run, ...more] = await runsOf(t.id);
  expect(more).toEqual([]);
  expect(run.trigger.app).toEqual({ id: "gcp-pubsub", event: "order.paid", deliveryId: "14790134552118432" });
  expect(run.trigger.body.message.data).toBe(data);
  expect(run.trigger.body.message.decoded).toEqual({ orderId: 9007199254740993, status: "paid" });
  // The API's own text keeps every digit (JSON.parse above rounds it).
  const text = await (await server.fetch(`/api/runs/${run.id}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  expect(text).toContain('"decoded":{"orderId":9007199254740993,"status":"paid"}');
  expect(run.trigger.body.subscription).toBe("projects/acme-prod/subscriptions/inlet");
  expect(run.trigger.headers.authorization).toBeUndefined();
  expect(run.trigger.headers["user-agent"]).toBe("APIs-Google");
  expect((await server.activity(t.id)).map((row) => row.outcome)).toEqual(["deduplicated", "run"]);
});

test("data that is not JSON is decoded to its text; without an eventType attribute the event is null", async () => {
  const t = await pubsubTrigger("text");
  expect((await push(t.url, envelope(b64("hello, world"), "m-text"), await token(t.url))).status).toBe(200);
  const [run] = await runsOf(t.id);
  expect(run.trigger.body.message.decoded).toBe("hello, world");
  expect(run.trigger.app).toEqual({ id: "gcp-pubsub", event: null, deliveryId: "m-text" });
});

test("filters and redaction see the decoded data; under redaction the raw data is not stored", async () => {
  const t = await pubsubTrigger(
    "screened",
    {},
    {
      filter: { enabled: true, mode: "include", expression: '$.message.decoded.status == "paid"' },
      redaction: { enabled: true, patterns: ["^email$"] },
    },
  );
  const paid = envelope(b64('{"status":"paid","email":"ada@example.com"}'), "m-paid");
  expect((await push(t.url, paid, await token(t.url))).status).toBe(200);
  expect((await push(t.url, envelope(b64('{"status":"refunded"}'), "m-refunded"), await token(t.url))).status).toBe(200);
  const runs = await runsOf(t.id);
  expect(runs).toHaveLength(1);
  expect(runs[0].trigger.body.message.decoded).toEqual({ status: "paid", email: "[REDACTED]" });
  expect(runs[0].trigger.body.message.data).toBeUndefined();
  expect(JSON.stringify(runs[0])).not.toContain("ada@example.com");
  expect((await server.activity(t.id)).map((row) => row.outcome)).toEqual(["filtered", "run"]);
});

test("appSettings.audience: the token's aud must be it instead of the trigger's URL", async () => {
  const t = await pubsubTrigger("audience", { audience: "inlet-pubsub" });
  expect((await push(t.url, envelope("", "m-aud-1"), await token("inlet-pubsub"))).status).toBe(200);
  expect((await push(t.url, envelope("", "m-aud-2"), await token(t.url))).status).toBe(401);
});

test("every refused token is the uniform 401 before anything is stored; Activity names the reason", async () => {
  const t = await pubsubTrigger("refusals");
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  const now = seconds();
  const cases: Array<[string | null, string]> = [
    [null, "gcp-pubsub signature missing or invalid"],
    [new UnsecuredJWT({ aud: t.url, email: EMAIL, email_verified: true, iss: "https://accounts.google.com", exp: now + 60 }).encode(), "JWT refused:"],
    [await token(t.url, {}, other), "unknown kid"],
    [await token(t.url, { iat: now - 7200, exp: now - 3600 }), "JWT refused: expired"],
    [await token(`${PUBLIC}/webhooks/another`), 'unexpected "aud"'],
    [
      await token(t.url, { email: "intruder@evil-project.iam.gserviceaccount.com" }),
      `"email" is "intruder@evil-project.iam.gserviceaccount.com", not "${EMAIL}"`,
    ],
    [await token(t.url, { email_verified: false }), '"email_verified" is false, not true'],
  ];
  for (const [bearer] of cases) {
    const response = await push(t.url, envelope(b64("{}"), `m-${Math.random()}`), bearer);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "authentication failed", request_id: response.headers.get("x-request-id") });
  }
  // Refusals are answered before their rows are durable: wait for all of them.
  const rows = (
    await eventually(async () => {
      const settled = await server.activity(t.id);
      return settled.length === cases.length && settled;
    })
  ).reverse();
  expect(rows.map((row) => row.outcome)).toEqual(cases.map(() => "auth_failed"));
  cases.forEach(([, reason], i) => expect(rows[i].detail).toContain(reason));
  expect(await runsOf(t.id)).toEqual([]);
});

test("a JWKS host that is down: 503 unavailable with Retry-After and an error row naming it, never a 200 or a 401", async () => {
  const t = await pubsubTrigger("down", { jwksUrl: down.jwksUrl });
  const response = await push(t.url, envelope("", "m-down"), await token(t.url));
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await response.json()).toEqual({ error: "unavailable", request_id: response.headers.get("x-request-id") });
  const [row] = await eventually(async () => {
    const rows = await server.activity(t.id);
    return rows.length > 0 && rows;
  });
  expect(row.outcome).toBe("error");
  expect(row.detail).toStartWith(`provider host ${down.hostPort} unavailable:`);
  expect(await runsOf(t.id)).toEqual([]);
});

test("settings are checked at save: a JWKS URL on a host outside the rule, a missing or malformed service account email", async () => {
  const refused = await server.api("POST", "/api/triggers", {
    name: "evil",
    app: "gcp-pubsub",
    appSettings: { serviceAccountEmail: EMAIL, jwksUrl: "https://keys.evil.example/certs" },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.details).toEqual([
    { path: "/appSettings/jwksUrl", message: expect.stringContaining("keys.evil.example is not one of the provider's hosts") },
  ]);
  const t = await pubsubTrigger("patched");
  const patched = await server.api("PATCH", `/api/triggers/${t.id}`, { appSettings: { jwksUrl: "http://127.0.0.1:1/certs" } });
  expect(patched.status).toBe(400);
  expect(patched.body.details).toEqual([{ path: "/appSettings/jwksUrl", message: expect.stringContaining("is not https") }]);
  // Google's own key URL needs no flag; an empty one means it.
  expect((await server.api("PATCH", `/api/triggers/${t.id}`, { appSettings: { jwksUrl: "https://www.googleapis.com/oauth2/v3/certs" } })).status).toBe(200);
  expect((await server.api("PATCH", `/api/triggers/${t.id}`, { appSettings: { jwksUrl: null } })).body.appSettings.jwksUrl).toBe("");
  // Optional, as every app setting: the trigger is made, and refuses every push until it is set.
  expect((await server.api("POST", "/api/triggers", { name: "none", app: "gcp-pubsub" })).status).toBe(201);
  expect(
    (await server.api("POST", "/api/triggers", { name: "bad", app: "gcp-pubsub", appSettings: { serviceAccountEmail: "not-an-email" } })).body.details,
  ).toEqual([{ path: "/appSettings/serviceAccountEmail", message: expect.stringContaining("is not an email address") }]);
});

test("inlet sign: without a key it cannot make a token (only Google holds its keys); with --key of the stand-in's key its command is accepted", async () => {
  const t = await pubsubTrigger("signed");
  const dir = mkdtempSync(join(tmpdir(), "inlet-pubsub-sign-"));
  try {
    const bodyFile = join(dir, "push.json");
    const keyFile = join(dir, "test-private.pem");
    writeFileSync(bodyFile, envelope(b64('{"n":1}'), "m-signed"));
    writeFileSync(keyFile, google.privatePem);
    const record = server.core.triggers.get(t.id)!;
    const options = { bodyFile, contentType: "application/json" };
    await expect(signedCurl(record, PUBLIC, server.core.plugins, options)).rejects.toThrow(/cannot sign: Google signs Pub\/Sub's tokens with its own keys/);
    const curl = await signedCurl(record, PUBLIC, server.core.plugins, { ...options, keyFile });
    const bearer = /'Authorization: Bearer ([^']+)'/.exec(curl)?.[1];
    expect(bearer).toBeDefined();
    expect((await push(t.url, readFileSync(bodyFile, "utf8"), bearer!)).status).toBe(200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
