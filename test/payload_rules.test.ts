import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, UUID, type TestServer } from "./support/server.ts";

// Payload rules (CONTRACT §6.5) through real HTTP: JSON Schema, XML bodies, per-trigger body limits.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close(), 20_000);

const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });
const runsOf = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];

const orderSchema = {
  type: "object",
  required: ["id", "amount"],
  properties: { id: { type: "string", pattern: "^ord_[0-9]+$" }, amount: { type: "number", minimum: 0 }, type: { type: "string" } },
};

describe("JSON Schema", () => {
  test("a body that does not conform gets 422 with details, no run, one rejected row; a conforming one runs", async () => {
    const t = await server.createTrigger({ name: "schema", schema: { enabled: true, document: orderSchema } });
    const bad = await post(t.url, JSON.stringify({ id: "ORD-1", amount: -3 }));
    expect(bad.status).toBe(422);
    const id = bad.headers.get("x-request-id");
    expect(id).toMatch(UUID);
    expect(await bad.json()).toEqual({
      error: "schema validation failed",
      request_id: id,
      details: [
        { path: "/id", message: 'must match pattern "^ord_[0-9]+$"' },
        { path: "/amount", message: "must be >= 0" },
      ],
    });
    expect((await post(t.url, JSON.stringify({ id: "ord_1", amount: 3 }))).status).toBe(200);
    expect(await runsOf(t.id)).toHaveLength(1);
    const rows = await server.activity(t.id);
    expect(rows.map((r) => [r.outcome, r.detail])).toEqual([
      ["run", null],
      ["rejected", 'schema: 2 problems, first /id must match pattern "^ord_[0-9]+$"'],
    ]);
    expect(t.schema).toEqual({ enabled: true, document: orderSchema });
  });

  test("the processing order: a duplicate of a non-conforming body is deduplicated; a conforming body the filter excludes is filtered", async () => {
    const t = await server.createTrigger({
      name: "schema-order",
      dedup: { strategy: "payload-hash" },
      schema: { enabled: true, document: orderSchema },
      filter: { enabled: true, mode: "exclude", expression: '$.type == "test"' },
    });
    const nonConforming = JSON.stringify({ id: "x" });
    expect((await post(t.url, nonConforming)).status).toBe(422);
    const again = await post(t.url, nonConforming);
    expect(again.status).toBe(200);
    expect((await post(t.url, JSON.stringify({ id: "ord_2", amount: 1, type: "test" }))).status).toBe(200);
    expect((await server.activity(t.id)).map((r) => r.outcome)).toEqual(["filtered", "deduplicated", "rejected"]);
    expect(await runsOf(t.id)).toHaveLength(0);
  });

  test("an invalid schema is refused at save with a message that helps; a hostile pattern costs only its own request", async () => {
    const invalid = await server.api("POST", "/api/triggers", { name: "bad-schema", schema: { enabled: true, document: { type: "object", properties: { id: { pattern: "(" } } } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toEqual([{ path: "/schema/document/properties/id/pattern", message: expect.stringContaining("is not a valid regular expression") }]);
    const missing = await server.api("POST", "/api/triggers", { name: "no-doc", schema: { enabled: true } });
    expect(missing.body.details[0].path).toBe("/schema/document");

    const hostile = await server.createTrigger({ name: "schema-redos", schema: { enabled: true, document: { properties: { s: { type: "string", pattern: "^(a+)+$" } } } } });
    const slow = await post(hostile.url, JSON.stringify({ s: "a".repeat(40) + "!" }));
    expect(slow.status).toBe(500);
    expect((await slow.json()).error).toBe("pre-execution check failed");
    expect((await server.activity(hostile.id))[0]).toMatchObject({ outcome: "error", detail: expect.stringContaining("pre-execution check failed") });
  });

  test("PATCH turns the schema off and on; the trigger shows it", async () => {
    const t = await server.createTrigger({ name: "schema-toggle", schema: { enabled: true, document: orderSchema } });
    const off = await server.api("PATCH", `/api/triggers/${t.id}`, { schema: { enabled: false } });
    expect(off.body.schema).toEqual({ enabled: false, document: orderSchema });
    expect((await post(t.url, "{}")).status).toBe(200);
  });
});

describe("XML bodies", () => {
  test("parsed into an object so filters and redaction apply; malformed XML is 400 invalid XML body", async () => {
    const t = await server.createTrigger({
      name: "xml",
      filter: { enabled: true, expression: '$.order["@_status"] == "paid"' },
      redaction: { enabled: true, patterns: ["^email$"] },
    });
    const xml = { "Content-Type": "application/xml" };
    expect((await post(t.url, '<order status="paid"><email>a@b.c</email><total currency="EUR">12.50</total></order>', xml)).status).toBe(200);
    expect((await post(t.url, '<order status="open"/>', xml)).status).toBe(200);
    const [run] = await runsOf(t.id);
    expect(run.trigger.body).toEqual({ order: { "@_status": "paid", email: "[REDACTED]", total: { "@_currency": "EUR", "#text": "12.50" } } });
    expect((await server.activity(t.id)).map((r) => r.outcome)).toEqual(["filtered", "run"]);

    const broken = await post(t.url, "<order><total></order>", xml);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: "invalid XML body", request_id: broken.headers.get("x-request-id") });
    const bomb = await post(t.url, '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><x>&b;</x>', { "Content-Type": "text/xml" });
    expect(bomb.status).toBe(400);
    expect((await server.activity(t.id))[0]).toMatchObject({ outcome: "rejected", detail: expect.stringContaining("never expanded") });
  });
});

describe("per-trigger body limits", () => {
  test("maxBodyBytes is enforced per trigger while streaming, below and above the server's limit, with the JSON 413", async () => {
    const small = await server.createTrigger({ name: "small", maxBodyBytes: 10 });
    const tooBig = await post(small.url, JSON.stringify({ over: "ten bytes" }));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ error: "payload too large", request_id: tooBig.headers.get("x-request-id") });
    expect((await post(small.url, "{}")).status).toBe(200);

    // Larger than the server's default 1 MiB: allowed for this trigger only.
    const big = await server.createTrigger({ name: "big", maxBodyBytes: 3 * 1024 * 1024 });
    const body = JSON.stringify({ blob: "x".repeat(2 * 1024 * 1024) });
    expect((await post(big.url, body)).status).toBe(200);
    expect((await post(small.url.replace(small.token, (await server.createTrigger({ name: "default-limit" })).token), body)).status).toBe(413);
    // A chunked body without a length is cut as soon as it crosses the limit.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1024 * 1024)));
        controller.close();
      },
    });
    expect((await fetch(big.url, { method: "POST", body: stream, headers: { "Content-Type": "text/plain" }, duplex: "half" } as RequestInit)).status).toBe(413);
    const cleared = await server.api("PATCH", `/api/triggers/${big.id}`, { maxBodyBytes: null });
    expect(cleared.body.maxBodyBytes).toBeNull();
    expect((await server.api("PATCH", `/api/triggers/${big.id}`, { maxBodyBytes: 104_857_601 })).body.details[0].path).toBe("/maxBodyBytes");
  });
});
