import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import github from "../plugins/github/index.ts";
import stripe from "../plugins/stripe/index.ts";
import { pluginContext } from "../src/plugins/context.ts";
import { withPinnedClock } from "./support/clock.ts";
import { dropDatabase, newSecretKey, startInstance, stopAll } from "./support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "./support/postgres.ts";
import { cli } from "./support/process.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Rotation with overlap (docs/api.md#rotation-with-overlap) through real HTTP.
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(overrides);
  cleanups.push(() => s.close());
  return s;
}

const post = (url: string, headers: Record<string, string>, body = "{}") =>
  fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });
const bearer = (url: string, token: string) => post(url, { Authorization: `Bearer ${token}` });
const hmac = (url: string, secret: string, body = '{"n":1}', alg: "sha256" | "sha512" = "sha256") =>
  post(url, { "X-Signature": `${alg}=${new Bun.CryptoHasher(alg, secret).update(body).digest("hex")}` }, body);
const reveal = async (s: TestServer, id: string) => (await s.api("GET", `/api/triggers/${id}/secret`)).body.secret as string;

/** The other generic modes with a generated secret: the trigger's `auth`, and a request that proves `secret` the way a caller does. */
const modes: Record<string, { auth: Record<string, unknown>; send: (url: string, secret: string) => Promise<Response> }> = {
  header: { auth: { type: "header", headerName: "X-Webhook-Secret" }, send: (url, secret) => post(url, { "x-webhook-secret": secret }) },
  "hmac-sha512": { auth: { type: "hmac-sha512" }, send: (url, secret) => hmac(url, secret, '{"n":512}', "sha512") },
  basic: { auth: { type: "basic", username: "acme" }, send: (url, secret) => post(url, { Authorization: `Basic ${btoa(`acme:${secret}`)}` }) },
  jwt: {
    auth: { type: "jwt", jwt: { algorithms: ["HS256"] } },
    send: async (url, secret) => {
      const token = await new SignJWT({ exp: Math.floor(Date.now() / 1000) + 60 }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(secret));
      return bearer(url, token);
    },
  },
};

describe("generic modes", () => {
  test("the new secret works at once, the previous one until previousExpiresAt, then only the new one", async () => {
    const s = await server();
    const t = await s.createTrigger({ name: "rotate-bearer", auth: { type: "bearer" } });
    const rotated = await s.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 86400 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(t.secret);
    expect(Date.parse(rotated.body.previousExpiresAt) - Date.now()).toBeGreaterThan(86_000_000);
    expect(await reveal(s, t.id)).toBe(rotated.body.secret);
    expect((await bearer(t.url, rotated.body.secret)).status).toBe(200);
    expect((await bearer(t.url, t.secret)).status).toBe(200);
    expect((await s.api("GET", `/api/triggers/${t.id}`)).body.auth.previousSecretExpiresAt).toBe(rotated.body.previousExpiresAt);

    // Rotating again without overlap: only the newest verifies.
    const again = await s.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 0 });
    expect((await bearer(t.url, rotated.body.secret)).status).toBe(401);
    expect((await bearer(t.url, t.secret)).status).toBe(401);
    expect((await bearer(t.url, again.body.secret)).status).toBe(200);
    expect((await s.api("GET", `/api/triggers/${t.id}`)).body.auth.previousSecretExpiresAt).toBeNull();
  });

  test("expiry is exact, across a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "inlet-test-rotation-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startTestServer({ dataDir });
    const t = await first.createTrigger({ name: "rotate-hmac", auth: { type: "hmac-sha256" } });
    const rotated = await first.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 2 });
    await first.close();
    const second = await server({ dataDir });
    const url = `${second.url}/webhooks/${t.token}`;
    expect((await hmac(url, t.secret)).status).toBe(200);
    expect((await hmac(url, rotated.body.secret)).status).toBe(200);
    await Bun.sleep(Math.max(0, Date.parse(rotated.body.previousExpiresAt) - Date.now()) + 50);
    expect((await hmac(url, t.secret)).status).toBe(401);
    expect((await hmac(url, rotated.body.secret)).status).toBe(200);
  });

  test.each(Object.keys(modes))("%s: the new secret at once, the previous one until previousExpiresAt and not after it", (mode) =>
    withPinnedClock(async (clock) => {
      const { auth, send } = modes[mode];
      const s = await server();
      const t = await s.createTrigger({ name: `rotate-${mode}`, auth });
      const rotated = await s.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 600 });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(t.secret);
      expect(rotated.body.previousExpiresAt).toBe(new Date(clock.now() + 600_000).toISOString());
      expect(await reveal(s, t.id)).toBe(rotated.body.secret);
      expect((await send(t.url, rotated.body.secret)).status).toBe(200);
      expect((await send(t.url, t.secret)).status).toBe(200);
      expect((await send(t.url, `${t.secret}x`)).status).toBe(401);
      clock.set(Date.parse(rotated.body.previousExpiresAt) - 1);
      expect((await send(t.url, t.secret)).status).toBe(200);
      clock.set(Date.parse(rotated.body.previousExpiresAt) + 1);
      expect((await send(t.url, t.secret)).status).toBe(401);
      expect((await send(t.url, rotated.body.secret)).status).toBe(200);
      expect((await s.api("GET", `/api/triggers/${t.id}`)).body.auth.previousSecretExpiresAt).toBeNull();
    }),
  );

  test("changing the Authentication Type still rotates at once; a trigger without a secret has none to rotate", async () => {
    const s = await server();
    const t = await s.createTrigger({ name: "rotate-type", auth: { type: "bearer" } });
    await s.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 3600 });
    const changed = await s.api("PATCH", `/api/triggers/${t.id}`, { auth: { type: "header" } });
    expect(changed.body.auth.previousSecretExpiresAt).toBeNull();
    const none = await s.createTrigger({ name: "rotate-none" });
    const refused = await s.api("POST", `/api/triggers/${none.id}/rotate`, { overlapSeconds: 10 });
    expect(refused.status).toBe(400);
    expect((await s.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 604_801 })).body.details[0].path).toBe("/overlapSeconds");
    expect((await s.api("POST", "/api/triggers/nope/rotate", {})).status).toBe(404);
  });
});

test("an app trigger with a pasted secret: the provider signs with both during its own roll", async () => {
  const s = await server();
  const created = await s.api("POST", "/api/triggers", { name: "rotate-stripe", app: "stripe", appSecret: "whsec_old" });
  const t = created.body;
  const send = async (secret: string) => {
    const body = '{"id":"evt_' + crypto.randomUUID() + '","type":"x"}';
    const signed = await stripe.sign!(
      { method: "POST", url: t.url, rawBody: new TextEncoder().encode(body), headers: new Headers() },
      pluginContext(secret, new Date()),
    );
    return fetch(t.url, { method: "POST", body, headers: { "Content-Type": "application/json", ...signed.headers } });
  };
  expect((await s.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 60 })).body.details[0].path).toBe("/appSecret");
  const rotated = await s.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 60, appSecret: "whsec_new" });
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).toBeUndefined();
  expect((await send("whsec_new")).status).toBe(200);
  expect((await send("whsec_old")).status).toBe(200);
  expect((await send("whsec_other")).status).toBe(401);
});

test("a trigger whose plugin generates a secret but was given one rotates the way it was set up: with appSecret, never leaving the generated one in force", async () => {
  const s = await server();
  const send = async (url: string, secret: string) => {
    const body = JSON.stringify({ zen: crypto.randomUUID() });
    const signed = await github.sign!(
      { method: "POST", url, rawBody: new TextEncoder().encode(body), headers: new Headers() },
      pluginContext(secret, new Date()),
    );
    return fetch(url, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "X-GitHub-Event": "ping", "X-GitHub-Delivery": crypto.randomUUID(), ...signed.headers },
    });
  };
  const pasted = (await s.api("POST", "/api/triggers", { name: "gh-pasted", app: "github", appSecret: "pasted-old-0123456789" })).body;
  expect((await send(pasted.url, "pasted-old-0123456789")).status).toBe(200);
  // Without the new secret: refused, saying what to send (a generated one would leave the pasted one in force).
  const bare = await s.api("POST", `/api/triggers/${pasted.id}/rotate`, { overlapSeconds: 3 });
  expect([bare.status, bare.body.details[0].path]).toEqual([400, "/appSecret"]);
  expect(bare.body.details[0].message).toContain("send the new one as appSecret");
  const rotated = await s.api("POST", `/api/triggers/${pasted.id}/rotate`, { overlapSeconds: 3, appSecret: "pasted-new-0123456789" });
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).toBeUndefined();
  expect((await send(pasted.url, "pasted-new-0123456789")).status).toBe(200);
  expect((await send(pasted.url, "pasted-old-0123456789")).status).toBe(200);
  expect((await send(pasted.url, "pasted-other-012345678")).status).toBe(401);

  // One set up with inlet's generated secret rotates to a new generated one, and refuses a pasted one.
  const generated = (await s.api("POST", "/api/triggers", { name: "gh-generated", app: "github" })).body;
  const refused = await s.api("POST", `/api/triggers/${generated.id}/rotate`, { overlapSeconds: 3, appSecret: "pasted-0123456789" });
  expect([refused.status, refused.body.details[0].path]).toEqual([400, "/appSecret"]);
  const old = await reveal(s, generated.id);
  const renewed = await s.api("POST", `/api/triggers/${generated.id}/rotate`, { overlapSeconds: 3 });
  expect(renewed.body.secret).not.toBe(old);
  expect((await send(generated.url, renewed.body.secret)).status).toBe(200);
});

test("inlet triggers rotate --overlap, on a running server's data dir", async () => {
  const s = await server();
  const t = await s.createTrigger({ name: "rotate-cli", auth: { type: "bearer" } });
  const r = await cli(["triggers", "rotate", t.id, "--overlap", "120", "--data-dir", s.dataDir]);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  // The server picks the change up within a second.
  for (let i = 0; i < 40 && (await bearer(t.url, out.secret)).status !== 200; i++) await Bun.sleep(50);
  expect((await bearer(t.url, out.secret)).status).toBe(200);
  expect((await bearer(t.url, t.secret)).status).toBe(200);
});

describe.skipIf(!postgresAvailable())("two instances on PostgreSQL", () => {
  test("a rotation through one instance holds on the other: both secrets until the overlap ends", async () => {
    const url = await freshDatabase((await sharedPostgres())!, "inlet_rotation");
    cleanups.push(() => dropDatabase(url).catch(() => {}));
    cleanups.push(stopAll);
    const options = { databaseUrl: url, secretKey: newSecretKey(), adminToken: "rotation-admin-token-0123456789" };
    const a = await startInstance("rot-a", options);
    const b = await startInstance("rot-b", options);
    const t = (await a.api("POST", "/api/triggers", { name: "rotate-pg", auth: { type: "bearer" } })).body;
    const old = (await a.api("GET", `/api/triggers/${t.id}/secret`)).body.secret;
    const rotated = (await a.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 2 })).body;
    const onB = (token: string) => b.webhook(t.token, "{}", { Authorization: `Bearer ${token}` });
    for (let i = 0; i < 40 && (await onB(rotated.secret)).status !== 200; i++) await Bun.sleep(50);
    expect((await onB(rotated.secret)).status).toBe(200);
    expect((await onB(old)).status).toBe(200);
    await Bun.sleep(Math.max(0, Date.parse(rotated.previousExpiresAt) - Date.now()) + 50);
    expect((await onB(old)).status).toBe(401);
  }, 60_000);
});
