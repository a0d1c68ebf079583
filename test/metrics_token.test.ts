import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "./support/server.ts";

// `/metrics` names every trigger (`inlet_trigger_info`) on a port that usually faces the internet.
// Open by default (docs/api.md#metrics, and scrapers and acceptance suites read it so); with
// --metrics-token, it needs that token or the admin token. Through the socket, as a scraper calls it.

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";

const get = (server: TestServer, path: string, token?: string) =>
  fetch(`${server.url}${path}`, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } });

describe("without --metrics-token", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("/metrics is open to anyone, as the contract lists it, whatever Authorization says", async () => {
    await server.createTrigger({ name: "orders" });
    for (const token of [undefined, "not-a-token-at-all"]) {
      const r = await get(server, "/metrics", token);
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('name="orders"');
    }
  });
});

describe("with --metrics-token", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, ["--metrics-token", METRICS_TOKEN]);
    await server.createTrigger({ name: "payroll" });
  });
  afterAll(() => server.close());

  test('no token: the management API\'s 401, {"error":"unauthorized"} with a Bearer challenge; /healthz and /readyz stay open (load balancers)', async () => {
    const r = await get(server, "/metrics");
    expect(r.status).toBe(401);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("www-authenticate")).toBe('Bearer realm="inlet"');
    expect(await r.json()).toEqual({ error: "unauthorized" });
    expect((await get(server, "/healthz")).status).toBe(200);
    expect((await get(server, "/readyz")).status).toBe(200);
  });

  test("a wrong token: 401 in the same shape, the challenge saying which tokens are taken; the metrics token and the admin token read the exposition", async () => {
    for (const token of ["wrong-token-0123456789", METRICS_TOKEN.toUpperCase(), `${METRICS_TOKEN}x`]) {
      const r = await get(server, "/metrics", token);
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ error: "unauthorized" });
      expect(r.headers.get("www-authenticate")).toStartWith('Bearer realm="inlet", error="invalid_token", error_description="');
      expect(r.headers.get("www-authenticate")).toContain("--metrics-token");
    }
    for (const token of [METRICS_TOKEN, ADMIN_TOKEN]) {
      const r = await get(server, "/metrics", token);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(await r.text()).toContain('name="payroll"');
    }
    // It is a scraper's credential: the management API still wants the admin token.
    const api = await get(server, "/api/triggers", METRICS_TOKEN);
    expect(api.status).toBe(401);
    expect(await api.json()).toEqual({ error: "unauthorized" });
  });
});
