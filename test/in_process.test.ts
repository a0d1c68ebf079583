import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, UUID, type TestServer } from "./support/server.ts";

// The same contract rows as webhooks.test.ts, through app.handle() with no socket in between.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: 1024 });
});
afterAll(() => server.close());

const call = (path: string, init: RequestInit = {}) => server.app.handle(new Request(`http://inlet.local${path}`, init));

async function shape(response: Response, status: number, error?: string) {
  expect(response.status).toBe(status);
  const id = response.headers.get("x-request-id");
  expect(id).toMatch(UUID);
  expect(await response.json()).toEqual(error ? { error, request_id: id } : { received: true, request_id: id });
}

test("every webhook row of docs/api.md#answers in process", async () => {
  const t = await server.createTrigger({ name: "inproc", auth: { type: "hmac-sha512", encoding: "base64" } });
  const path = new URL(t.url).pathname;
  const body = '{"a":1}';
  const sig = new Bun.CryptoHasher("sha512", t.secret).update(body).digest("base64");
  await shape(await call(path, { method: "POST", body, headers: { "Content-Type": "application/json", "X-Signature": `sha512=${sig}` } }), 200);
  await shape(
    await call(path, { method: "POST", body, headers: { "Content-Type": "application/json", "X-Signature": "sha512=AAAA" } }),
    401,
    "authentication failed",
  );
  await shape(await call("/webhooks/nope", { method: "POST", body }), 404, "not found");
  const get = await call(path, { method: "GET" });
  expect(get.headers.get("allow")).toBe("POST");
  await shape(get, 405, "method not allowed");
  await shape(await call(path, { method: "POST", body: "x".repeat(2048), headers: { "X-Signature": sig } }), 413, "payload too large");
  const broken = "{broken";
  const brokenSig = new Bun.CryptoHasher("sha512", t.secret).update(broken).digest("base64");
  await shape(
    await call(path, { method: "POST", body: broken, headers: { "Content-Type": "application/json", "X-Signature": brokenSig } }),
    400,
    "invalid JSON body",
  );
});

test("management API and health in process", async () => {
  expect((await call("/api/triggers")).status).toBe(401);
  const ok = await call("/api/triggers", { headers: { Authorization: "Bearer test-admin-token-0123456789abcdef" } });
  expect(ok.status).toBe(200);
  expect((await call("/healthz")).status).toBe(200);
  expect((await call("/nowhere")).status).toBe(404);
});
