import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("admin token", () => {
  test("every /api call needs it", async () => {
    for (const headers of [{}, { Authorization: "Bearer wrong" }, { Authorization: "Basic abc" }] as Record<string, string>[]) {
      const r = await server.fetch(`${server.url}/api/triggers`, { headers });
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ error: "unauthorized" });
    }
    expect((await server.fetch(`${server.url}/api/openapi.json`)).status).toBe(401);
  });

  test("health endpoints and webhooks do not", async () => {
    expect((await server.fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await server.fetch(`${server.url}/readyz`)).status).toBe(200);
    const metrics = await server.fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain("# TYPE inlet_webhook_requests_total counter");
  });
});

describe("triggers", () => {
  test("create applies the defaults and returns the contract shape", async () => {
    const { status, body } = await server.api("POST", "/api/triggers", { name: "orders" });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      name: "orders",
      app: null,
      methods: ["POST"],
      auth: { type: "none", hasSecret: false },
      dedup: { strategy: "disabled" },
      filter: { enabled: false, mode: "include" },
      redaction: { enabled: false, patterns: [] },
      response: { mode: "immediate", timeoutMs: 10000 },
      workflow: { kind: "none" },
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(body.url).toBe(`${server.url}/webhooks/${body.token}`);
    expect(body.curl).toContain(body.url);
    expect(Date.parse(body.createdAt)).toBeGreaterThan(0);
    expect((await server.api("GET", `/api/triggers/${body.id}/secret`)).status).toBe(404);
  });

  test("secrets: 43-char base64url, revealed only by the reveal call, never in the Trigger", async () => {
    const { body } = await server.api("POST", "/api/triggers", { name: "b", auth: { type: "bearer" } });
    expect(body.auth.hasSecret).toBe(true);
    const { body: revealed } = await server.api("GET", `/api/triggers/${body.id}/secret`);
    expect(revealed.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify((await server.api("GET", `/api/triggers/${body.id}`)).body)).not.toContain(revealed.secret);
    expect(JSON.stringify((await server.api("GET", "/api/triggers")).body)).not.toContain(revealed.secret);
  });

  test("changing the Authentication Type rotates the secret; other changes keep it", async () => {
    const t = await server.createTrigger({ name: "rot", auth: { type: "bearer" } });
    await server.api("PATCH", `/api/triggers/${t.id}`, { name: "renamed" });
    expect((await server.api("GET", `/api/triggers/${t.id}/secret`)).body.secret).toBe(t.secret);
    await server.api("PATCH", `/api/triggers/${t.id}`, { auth: { type: "header", headerName: "X-Key" } });
    const second = (await server.api("GET", `/api/triggers/${t.id}/secret`)).body.secret;
    expect(second).not.toBe(t.secret);
    await server.api("PATCH", `/api/triggers/${t.id}`, { auth: { type: "bearer" } });
    const third = (await server.api("GET", `/api/triggers/${t.id}/secret`)).body.secret;
    expect(third).not.toBe(second);
    expect(third).not.toBe(t.secret);
    const old = await server.fetch(t.url, { method: "POST", body: "{}", headers: { Authorization: `Bearer ${t.secret}`, "Content-Type": "application/json" } });
    expect(old.status).toBe(401);
    const fresh = await server.fetch(t.url, { method: "POST", body: "{}", headers: { Authorization: `Bearer ${third}`, "Content-Type": "application/json" } });
    expect(fresh.status).toBe(200);
    await server.api("PATCH", `/api/triggers/${t.id}`, { auth: { type: "none" } });
    expect((await server.api("GET", `/api/triggers/${t.id}/secret`)).status).toBe(404);
  });

  test("list is newest first; get, patch, delete; a deleted trigger's URL answers 404", async () => {
    const a = await server.createTrigger({ name: "first" });
    const b = await server.createTrigger({ name: "second" });
    const list = (await server.api("GET", "/api/triggers")).body.map((t: any) => t.id);
    expect(list.indexOf(b.id)).toBeLessThan(list.indexOf(a.id));
    const patched = await server.api("PATCH", `/api/triggers/${a.id}`, { dedup: { strategy: "payload-hash" } });
    expect(patched.status).toBe(200);
    expect(patched.body.dedup).toEqual({ strategy: "payload-hash", windowSeconds: 3600 });
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThan(Date.parse(a.updatedAt));
    expect((await server.api("DELETE", `/api/triggers/${a.id}`)).status).toBe(204);
    expect((await server.api("GET", `/api/triggers/${a.id}`)).status).toBe(404);
    expect((await server.api("DELETE", `/api/triggers/${a.id}`)).status).toBe(404);
    expect((await server.api("PATCH", `/api/triggers/${a.id}`, { name: "x" })).status).toBe(404);
    expect((await server.fetch(a.url, { method: "POST", body: "{}" })).status).toBe(404);
  });
});

describe("validation: 400 with a summary and details by path", () => {
  const bad = async (input: unknown, path: string, fragment: string, method = "POST", url = "/api/triggers") => {
    const { status, body } = await server.api(method, url, input);
    expect(status).toBe(400);
    expect(typeof body.error).toBe("string");
    const detail = body.details.find((d: any) => d.path === path);
    expect(detail).toBeDefined();
    expect(detail.message).toContain(fragment);
  };

  test("HMAC types are refused for a GET-only trigger", async () => {
    await bad({ name: "g", methods: ["GET"], auth: { type: "hmac-sha256" } }, "/auth/type", "only GET");
    await bad({ name: "g", methods: ["GET"], auth: { type: "hmac-sha512" } }, "/auth/type", "only GET");
    const t = await server.createTrigger({ name: "g", methods: ["GET"], auth: { type: "bearer" } });
    await bad({ auth: { type: "hmac-sha256" } }, "/auth/type", "only GET", "PATCH", `/api/triggers/${t.id}`);
    expect((await server.api("POST", "/api/triggers", { name: "gp", methods: ["GET", "POST"], auth: { type: "hmac-sha256" } })).status).toBe(201);
  });

  test("header names: letters, digits and hyphens only", async () => {
    await bad({ name: "h", auth: { type: "header", headerName: "X_Secret" } }, "/auth/headerName", "");
    await bad({ name: "h", auth: { type: "header", headerName: "X Secret" } }, "/auth/headerName", "");
    await bad({ name: "h", auth: { type: "hmac-sha256", signatureHeader: "X:Sig" } }, "/auth/signatureHeader", "");
    await bad({ name: "h", dedup: { strategy: "header-value", headerName: "Idem Key" } }, "/dedup/headerName", "");
  });

  test("the dedup window is 1..86400, defaults to 3600", async () => {
    await bad({ name: "w", dedup: { strategy: "payload-hash", windowSeconds: 86401 } }, "/dedup/windowSeconds", "86400");
    await bad({ name: "w", dedup: { strategy: "payload-hash", windowSeconds: 0 } }, "/dedup/windowSeconds", "1");
    const ok = await server.api("POST", "/api/triggers", { name: "w", dedup: { strategy: "payload-hash", windowSeconds: 86400 } });
    expect(ok.body.dedup.windowSeconds).toBe(86400);
    const header = await server.api("POST", "/api/triggers", { name: "w", dedup: { strategy: "header-value", headerName: "Idempotency-Key" } });
    expect(header.body.dedup.windowSeconds).toBe(3600);
    await bad({ name: "w", dedup: { strategy: "header-value" } }, "/dedup/headerName", "required");
  });

  test("types, enums, unknown fields, empty and non-JSON bodies", async () => {
    await bad({}, "/name", "required");
    await bad({ name: "x", auth: { type: "digest" } }, "/auth/type", "must be one of");
    await bad({ name: "x", methods: ["PUT"] }, "/methods", "");
    await bad({ name: "x", colour: "red" }, "/colour", "not a known field");
    await bad({ name: "x", workflow: { kind: "http", url: "ftp://x" } }, "/workflow/url", "");
    await bad({ name: "x", workflow: { kind: "teleport" } }, "/workflow/kind", "must be one of");
    await bad("{not json", "", "not valid JSON");
    await bad("", "", "empty");
    await bad({ name: "x", app: "no-such-plugin" }, "/app", "no plugin");
    await bad({ name: "x", appSecret: "s" }, "/appSecret", "app triggers only");
    await bad({ name: "x", response: { mode: "workflow" } }, "/response/mode", "workflow");
  });

  test("list parameters are checked", async () => {
    const t = await server.createTrigger({ name: "pages" });
    for (const q of ["limit=0", "limit=501", "limit=ten"]) {
      const r = await server.api("GET", `/api/triggers/${t.id}/activity?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.details[0].path).toBe("/limit");
    }
    const r = await server.api("GET", `/api/runs?before=no-such-run`);
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe("/before");
  });
});

describe("runs and activity", () => {
  test("newest first, paged with limit and before; the payload only with include=trigger", async () => {
    const t = await server.createTrigger({ name: "paged" });
    for (let i = 0; i < 5; i++) await server.fetch(t.url, { method: "POST", body: JSON.stringify({ i }), headers: { "Content-Type": "application/json" } });
    const first = (await server.api("GET", `/api/runs?triggerId=${t.id}&limit=2`)).body;
    expect(first).toHaveLength(2);
    expect(first[0].trigger).toBeUndefined();
    const second = (await server.api("GET", `/api/runs?triggerId=${t.id}&limit=2&before=${first[1].id}&include=trigger`)).body;
    expect(second.map((r: any) => r.trigger.body.i)).toEqual([2, 1]);
    const one = await server.api("GET", `/api/runs/${first[0].id}`);
    expect(one.body).toMatchObject({ id: first[0].id, triggerId: t.id, status: "succeeded", attempts: 1, error: null, trigger: { body: { i: 4 } } });
    expect((await server.api("GET", "/api/runs/nope")).status).toBe(404);
    const rows = (await server.api("GET", `/api/triggers/${t.id}/activity?limit=3`)).body;
    expect(rows).toHaveLength(3);
    const more = (await server.api("GET", `/api/triggers/${t.id}/activity?before=${rows[2].id}`)).body;
    expect(more).toHaveLength(2);
    expect((await server.api("GET", "/api/triggers/nope/activity")).status).toBe(404);
  });
});

test("the OpenAPI document describes every call", async () => {
  const { status, body } = await server.api("GET", "/api/openapi.json");
  expect(status).toBe(200);
  expect(body.openapi).toBe("3.1.0");
  for (const path of [
    "/api/triggers",
    "/api/triggers/{id}",
    "/api/triggers/{id}/secret",
    "/api/triggers/{id}/activity",
    "/api/runs",
    "/api/runs/{id}",
    "/api/plugins",
    "/api/check",
  ]) {
    expect(body.paths[path]).toBeDefined();
  }
  expect(body.components.schemas.TriggerInput.properties.dedup).toBeDefined();
});

test("metrics count webhook outcomes per trigger", async () => {
  const t = await server.createTrigger({ name: "metered", auth: { type: "bearer" } });
  await server.fetch(t.url, { method: "POST", body: "{}" });
  await server.fetch(t.url, { method: "POST", body: "{}", headers: { Authorization: `Bearer ${t.secret}` } });
  const text = await (await server.fetch(`${server.url}/metrics`)).text();
  expect(text).toContain(`inlet_webhook_requests_total{trigger="${t.id}",outcome="auth_failed",status="401"} 1`);
  expect(text).toContain(`inlet_webhook_requests_total{trigger="${t.id}",outcome="run",status="200"} 1`);
  expect(text).toContain(`inlet_webhook_duration_seconds_count{trigger="${t.id}"} 2`);
});
