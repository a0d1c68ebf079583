import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, UUID, type TestServer } from "./support/server.ts";

// Who may send (CONTRACT §6.4) through real HTTP: the peer here is 127.0.0.1.
let server: TestServer;
let behindProxy: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  behindProxy = await startTestServer({}, ["--trusted-proxies", "127.0.0.1/32,10.0.0.0/8"]);
});
afterAll(async () => {
  await server.close();
  await behindProxy.close();
});

const post = (url: string, headers: Record<string, string> = {}) => fetch(url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json", ...headers } });

test("another address gets 403 before authentication, with a rejected row naming it; an allowed one goes on", async () => {
  const closed = await server.createTrigger({ name: "closed", auth: { type: "bearer" }, sources: { allow: ["192.0.2.0/24", "2001:db8::/32"] } });
  const forbidden = await post(closed.url, { Authorization: "Bearer wrong" });
  expect(forbidden.status).toBe(403);
  const id = forbidden.headers.get("x-request-id");
  expect(id).toMatch(UUID);
  expect(await forbidden.json()).toEqual({ error: "forbidden", request_id: id });
  // Never reached authentication: rejected, not auth_failed.
  expect((await server.activity(closed.id))[0]).toMatchObject({ outcome: "rejected", detail: "source address 127.0.0.1 is not in the trigger's allowed sources" });
  expect(closed.sources).toEqual({ allow: ["192.0.2.0/24", "2001:db8::/32"] });

  const open = await server.createTrigger({ name: "local", auth: { type: "bearer" }, sources: { allow: ["127.0.0.0/8"] } });
  expect((await post(open.url, { Authorization: `Bearer ${open.secret}` })).status).toBe(200);
  expect((await post(open.url, { Authorization: "Bearer wrong" })).status).toBe(401);
});

test("X-Forwarded-For is ignored unless the peer is a trusted proxy", async () => {
  const t = await server.createTrigger({ name: "spoof", sources: { allow: ["203.0.113.0/24"] } });
  expect((await post(t.url, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(403);

  const proxied = await behindProxy.createTrigger({ name: "proxied", sources: { allow: ["203.0.113.0/24"] } });
  expect((await post(proxied.url, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(200);
  // The rightmost untrusted entry counts: a sender's own forged entry to its left does not.
  expect((await post(proxied.url, { "X-Forwarded-For": "203.0.113.9, 198.51.100.4" })).status).toBe(403);
  expect((await post(proxied.url, { "X-Forwarded-For": "198.51.100.4, 203.0.113.9, 10.1.2.3" })).status).toBe(200);
  expect((await behindProxy.activity(proxied.id)).map((r) => r.detail)).toContain("source address 198.51.100.4 is not in the trigger's allowed sources");
});

test("entries are checked at save, at most 100; an empty list opens the trigger again", async () => {
  const bad = await server.api("POST", "/api/triggers", { name: "bad", sources: { allow: ["192.0.2.0/24", "example.com", "10.0.0.0/40"] } });
  expect(bad.status).toBe(400);
  expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(["/sources/allow/1", "/sources/allow/2"]);
  const many = await server.api("POST", "/api/triggers", { name: "many", sources: { allow: Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`) } });
  expect(many.status).toBe(400);
  const t = await server.createTrigger({ name: "reopen", sources: { allow: ["192.0.2.1"] } });
  expect((await post(t.url)).status).toBe(403);
  const reopened = await server.api("PATCH", `/api/triggers/${t.id}`, { sources: { allow: [] } });
  expect(reopened.body.sources).toEqual({ allow: [] });
  expect((await post(t.url)).status).toBe(200);
});

test("a bad --trusted-proxies entry stops the start with one line", async () => {
  const { cli } = await import("./support/process.ts");
  const r = await cli(["serve", "--port", "0", "--trusted-proxies", "10.0.0.0/8,proxy.internal"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--trusted-proxies: "proxy.internal" is not an IPv4 or IPv6 address');
});
