import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "./support/server.ts";

// README "Files and caching": no answer of the management API or /metrics may be kept by a cache
// (a proxy's, a browser's), whatever its status.
const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({}, ["--metrics-token", METRICS_TOKEN]);
});

afterAll(() => server?.close());

const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

test("every answer under /api/ and of /metrics carries Cache-Control: no-store, whatever its status", async () => {
  const trigger = await server.createTrigger({ name: "cached", auth: { type: "bearer" } });
  const cases: Array<[string, string, RequestInit, number]> = [
    ["list", "/api/triggers", { headers: admin }, 200],
    ["one trigger", `/api/triggers/${trigger.id}`, { headers: admin }, 200],
    ["its secret", `/api/triggers/${trigger.id}/secret`, { headers: admin }, 200],
    ["no token", "/api/triggers", {}, 401],
    ["wrong token", "/api/triggers", { headers: { Authorization: "Bearer wrong" } }, 401],
    ["unknown id", "/api/triggers/no-such-trigger", { headers: admin }, 404],
    ["unknown path", "/api/no-such-thing", { headers: admin }, 404],
    ["bad input", "/api/triggers", { method: "POST", headers: { ...admin, "Content-Type": "application/json" }, body: '{"name":42}' }, 400],
    ["not JSON", "/api/triggers", { method: "POST", headers: { ...admin, "Content-Type": "application/json" }, body: "{" }, 400],
    ["OpenAPI document", "/api/openapi.json", { headers: admin }, 200],
    ["OpenAPI preflight", "/api/openapi.json", { method: "OPTIONS" }, 204],
    ["deleted", `/api/triggers/${trigger.id}`, { method: "DELETE", headers: admin }, 204],
    ["URL too long", `/api/triggers?${"x".repeat(20_000)}`, { headers: admin }, 414],
    ["metrics", "/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }, 200],
    ["metrics without its token", "/metrics", {}, 401],
  ];
  for (const [what, path, init, status] of cases) {
    const answer = await server.fetch(path, init);
    expect({ what, status: answer.status, cacheControl: answer.headers.get("cache-control") }).toEqual({ what, status, cacheControl: "no-store" });
  }
});

test("through the socket too", async () => {
  for (const path of ["/api/triggers", "/metrics"]) {
    const answer = await fetch(`${server.url}${path}`);
    expect({ path, status: answer.status, cacheControl: answer.headers.get("cache-control") }).toEqual({ path, status: 401, cacheControl: "no-store" });
  }
});

test("a webhook's answer and the health checks are left as they were", async () => {
  const open = await server.createTrigger({ name: "open", auth: { type: "none" } });
  const webhook = await server.fetch(`/webhooks/${open.token}`, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
  expect(webhook.status).toBe(200);
  for (const answer of [webhook, await server.fetch("/healthz"), await server.fetch("/readyz")]) expect(answer.headers.get("cache-control")).toBeNull();
});
