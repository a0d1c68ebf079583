import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import asana from "../plugins/asana/index.ts";
import asanaFixture from "../plugins/asana/fixture.ts";
import { pluginContext } from "../src/plugins/context.ts";
import { withPinnedClock } from "./support/clock.ts";
import { cli } from "./support/process.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Trust on first use (README "Trust on first use") through a real server: an Asana or Notion
// trigger adopts the secret its provider's handshake hands over only while it is armed.
const dataDir = mkdtempSync(join(tmpdir(), "inlet-tofu-"));
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dataDir });
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const MINUTE = 60_000;
/** Asana's handshake, over a socket (so the server sees the client's address). */
const handshake = (url: string, secret: string) => fetch(url, { method: "POST", headers: { "X-Hook-Secret": secret } });
/** An Asana event batch signed with `secret`. */
async function event(url: string, secret: string) {
  const rawBody = new TextEncoder().encode(asanaFixture.body);
  const signed = await asana.sign({ method: "POST", url, rawBody, headers: new Headers() }, pluginContext(secret, new Date()));
  return fetch(url, { method: "POST", body: asanaFixture.body, headers: { "Content-Type": "application/json", ...signed.headers } });
}
const expectUniform401 = async (response: Response) => {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: "authentication failed", request_id: response.headers.get("x-request-id") });
};
const trigger = async (id: string) => (await server.api("GET", `/api/triggers/${id}`)).body;

test("Asana: armed for 15 minutes from creation; the handshake adopts its secret, names the address and ends the window", async () => {
  await withPinnedClock(async (clock) => {
    const t = await server.createTrigger({ name: "asana-first", app: "asana" });
    expect(t.armedUntil).toBe(new Date(clock.now() + 15 * MINUTE).toISOString());
    clock.advance(14 * MINUTE);
    const first = await handshake(t.url, "first-secret");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-hook-secret")).toBe("first-secret");
    expect((await trigger(t.id)).armedUntil).toBeNull();
    const [adopted] = await server.activity(t.id);
    expect(adopted).toMatchObject({ outcome: "filtered", requestId: first.headers.get("x-request-id") });
    expect(adopted.detail).toContain("the provider's secret was stored, handed over from 127.0.0.1");

    expect((await event(t.url, "first-secret")).status).toBe(200);
    // The window ended with the adoption: another handshake, at once, cannot replace the secret.
    await expectUniform401(await handshake(t.url, "a-strangers-secret"));
    // Asana retrying its own set-up (the same secret) is still answered.
    expect((await handshake(t.url, "first-secret")).status).toBe(200);
    expect((await event(t.url, "first-secret")).status).toBe(200);
  });
});

test("Asana: a handshake after the 15 minutes is the uniform 401, saying how to arm; arm lets the set-up through, and a later one replace the secret", async () => {
  await withPinnedClock(async (clock) => {
    const t = await server.createTrigger({ name: "asana-late", app: "asana" });
    clock.advance(15 * MINUTE + 1);
    expect((await trigger(t.id)).armedUntil).toBeNull();
    const late = await handshake(t.url, "a-strangers-secret");
    await expectUniform401(late);
    const [refused] = await server.activity(t.id);
    expect(refused).toMatchObject({ outcome: "auth_failed", requestId: late.headers.get("x-request-id") });
    expect(refused.detail).toContain("the trigger is not armed");
    expect(refused.detail).toContain(`POST /api/triggers/${t.id}/arm`);
    expect((await event(t.url, "a-strangers-secret")).status).toBe(401);

    const armed = await server.api("POST", `/api/triggers/${t.id}/arm`);
    expect(armed).toMatchObject({ status: 200, body: { armedUntil: new Date(clock.now() + 15 * MINUTE).toISOString() } });
    expect((await trigger(t.id)).armedUntil).toBe(armed.body.armedUntil);
    expect((await handshake(t.url, "owners-secret")).status).toBe(200);
    expect((await event(t.url, "owners-secret")).status).toBe(200);

    // Armed again, the next set-up replaces the adopted secret.
    clock.advance(60 * MINUTE);
    await expectUniform401(await handshake(t.url, "new-secret"));
    expect((await server.api("POST", `/api/triggers/${t.id}/arm`)).status).toBe(200);
    expect((await handshake(t.url, "new-secret")).status).toBe(200);
    expect((await event(t.url, "new-secret")).status).toBe(200);
    expect((await event(t.url, "owners-secret")).status).toBe(401);
  });
});

test("Notion: the token it re-sends (the same one) is answered after the window, another is refused", async () => {
  await withPinnedClock(async (clock) => {
    const t = await server.createTrigger({ name: "notion", app: "notion" });
    const verification = (token: string) =>
      fetch(t.url, { method: "POST", body: JSON.stringify({ verification_token: token }), headers: { "Content-Type": "application/json" } });
    expect((await verification("secret_first")).status).toBe(200);
    clock.advance(30 * MINUTE);
    expect((await verification("secret_first")).status).toBe(200);
    await expectUniform401(await verification("secret_other"));
  });
});

test("arm: 404 for an unknown id, 409 saying why for a trigger whose plugin adopts no secret; only such triggers show armedUntil", async () => {
  expect(await server.api("POST", "/api/triggers/nope/arm")).toMatchObject({ status: 404, body: { error: "trigger not found" } });
  for (const input of [
    { name: "stripe", app: "stripe", appSecret: "whsec_x" },
    { name: "generic", auth: { type: "bearer" } },
  ]) {
    const t = await server.createTrigger(input);
    expect("armedUntil" in t).toBe(false);
    const refused = await server.api("POST", `/api/triggers/${t.id}/arm`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain("takes no secret from a handshake: there is nothing to arm");
  }
});

test("inlet triggers arm ID: stored, so the running server (another process) lets the next handshake through", async () => {
  const t = await server.createTrigger({ name: "asana-cli", app: "asana" });
  expect((await handshake(t.url, "first")).status).toBe(200);
  await expectUniform401(await handshake(t.url, "second"));
  const armed = await cli(["triggers", "arm", t.id, "--data-dir", dataDir]);
  expect(armed.code).toBe(0);
  const { armedUntil } = JSON.parse(armed.stdout);
  expect(Date.parse(armedUntil)).toBeGreaterThan(Date.now());
  // The server reloads triggers changed by another process within a second.
  let status = 0;
  for (let i = 0; i < 40 && status !== 200; i++) {
    if (i > 0) await Bun.sleep(50);
    if ((await trigger(t.id)).armedUntil === armedUntil) status = (await handshake(t.url, "second")).status;
  }
  expect(status).toBe(200);
  expect((await event(t.url, "second")).status).toBe(200);

  const generic = await server.createTrigger({ name: "generic-cli" });
  const refused = await cli(["triggers", "arm", generic.id, "--data-dir", dataDir]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toStartWith("inlet: this is a generic trigger and takes no secret from a handshake");
  expect((await cli(["triggers", "arm", "nope", "--data-dir", dataDir])).stderr).toBe("inlet: no trigger with id nope\n");
});
