import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, UUID, type TestServer } from "./support/server.ts";

// Payload rules (docs/api.md#payload-rules) through real HTTP: JSON Schema, XML bodies, per-trigger body limits.
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
    const invalid = await server.api("POST", "/api/triggers", {
      name: "bad-schema",
      schema: { enabled: true, document: { type: "object", properties: { id: { pattern: "(" } } } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toEqual([
      { path: "/schema/document/properties/id/pattern", message: expect.stringContaining("is not a valid regular expression") },
    ]);
    const missing = await server.api("POST", "/api/triggers", { name: "no-doc", schema: { enabled: true } });
    expect(missing.body.details[0].path).toBe("/schema/document");

    // Outside I-Regexp (the lookahead), so the sandbox runs it; `^(a+)+$` alone would run on the linear engine.
    const hostile = await server.createTrigger({
      name: "schema-redos",
      schema: { enabled: true, document: { properties: { s: { type: "string", pattern: "^(a+)+(?!b)$" } } } },
    });
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

/** Posts `body` and returns the 422's details after checking the answer's shape. */
const schemaDetails = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const r = await post(url, body, headers);
  expect(r.status).toBe(422);
  const answer = await r.json();
  expect(answer).toMatchObject({ error: "schema validation failed", request_id: r.headers.get("x-request-id") });
  expect(Object.keys(answer).sort()).toEqual(["details", "error", "request_id"]);
  return answer.details as { path: string; message: string }[];
};

describe("JSON Schema details and order", () => {
  test('paths are JSON Pointers (escaped keys, array indexes, the whole body is ""); at most 20 details', async () => {
    const t = await server.createTrigger({
      name: "pointers",
      schema: {
        enabled: true,
        document: {
          type: "object",
          required: ["x/y"],
          properties: { "a/b": { type: "string" }, "m~n": { type: "string" }, items: { type: "array", items: { properties: { price: { type: "number" } } } } },
        },
      },
    });
    const details = await schemaDetails(t.url, JSON.stringify({ "a/b": 1, "m~n": 2, items: [{ price: 1 }, { price: "1" }] }));
    expect(details.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "/a~1b", message: "must be string" },
      { path: "/items/1/price", message: "must be number" },
      { path: "/m~0n", message: "must be string" },
      { path: "/x~1y", message: "is required" },
    ]);
    expect(await schemaDetails(t.url, "[]")).toEqual([{ path: "", message: "must be object" }]);
    expect((await server.activity(t.id))[0].detail).toBe("schema: the body must be object");

    const list = await server.createTrigger({ name: "twenty", schema: { enabled: true, document: { type: "array", items: { type: "string" } } } });
    const many = await schemaDetails(list.url, JSON.stringify(Array.from({ length: 50 }, (_, i) => i)));
    expect(many.map((d) => d.path)).toEqual(Array.from({ length: 20 }, (_, i) => `/${i}`));
    expect(await runsOf(list.id)).toHaveLength(0);
    expect((await server.activity(list.id)).map((r) => r.outcome)).toEqual(["rejected"]);
  });

  test("authentication comes before the schema, the schema before the filter; XML bodies are checked as parsed", async () => {
    const t = await server.createTrigger({
      name: "schema-between",
      auth: { type: "bearer" },
      schema: { enabled: true, document: orderSchema },
      filter: { enabled: true, mode: "exclude", expression: '$.type == "test"' },
    });
    const nonConformingTest = JSON.stringify({ id: "x", type: "test" });
    expect((await post(t.url, nonConformingTest, { Authorization: "Bearer wrong" })).status).toBe(401);
    expect((await post(t.url, nonConformingTest, { Authorization: `Bearer ${t.secret}` })).status).toBe(422);
    expect((await server.activity(t.id)).map((r) => r.outcome)).toEqual(["rejected", "auth_failed"]);

    const xml = await server.createTrigger({
      name: "schema-xml",
      schema: {
        enabled: true,
        document: { required: ["order"], properties: { order: { type: "object", required: ["@_id"], properties: { "@_id": { pattern: "^[0-9]+$" } } } } },
      },
    });
    const asXml = { "Content-Type": "text/xml" };
    expect((await post(xml.url, '<order id="7"><total>1</total></order>', asXml)).status).toBe(200);
    expect(await schemaDetails(xml.url, '<order id="x7"/>', asXml)).toEqual([{ path: "/order/@_id", message: 'must match pattern "^[0-9]+$"' }]);
    expect(await schemaDetails(xml.url, "<order/>", asXml)).toEqual([{ path: "/order", message: "must be object" }]);
  });

  test("an invalid document is refused on change too, and the trigger keeps its schema", async () => {
    const t = await server.createTrigger({ name: "keeps", schema: { enabled: true, document: orderSchema } });
    const invalid: [unknown, string][] = [
      [{ type: "strin" }, "/schema/document/type"],
      [{ minimum: "0" }, "/schema/document/minimum"],
      [{ patternProperties: { "[": {} } }, "/schema/document/patternProperties"],
      [{ required: "id" }, "/schema/document/required"],
      ["{}", "/schema/document"],
    ];
    for (const [document, path] of invalid) {
      const r = await server.api("PATCH", `/api/triggers/${t.id}`, { schema: { enabled: true, document } });
      expect([r.status, r.body.details?.[0]?.path]).toEqual([400, path]);
    }
    expect((await server.api("GET", `/api/triggers/${t.id}`)).body.schema).toEqual({ enabled: true, document: orderSchema });
  });

  test("catastrophic patternProperties and propertyNames patterns are bounded too, and cost only their own request", async () => {
    const evil = "^(a+)+(?!b)$";
    const calm = await server.createTrigger({ name: "calm", schema: { enabled: true, document: orderSchema } });
    for (const document of [{ patternProperties: { [evil]: { type: "string" } } }, { propertyNames: { pattern: evil } }]) {
      const t = await server.createTrigger({ name: "evil-keys", schema: { enabled: true, document } });
      const r = await post(t.url, JSON.stringify({ ["a".repeat(40) + "!"]: 1 }));
      expect([r.status, (await r.json()).error]).toEqual([500, "pre-execution check failed"]);
      expect((await post(calm.url, JSON.stringify({ id: "ord_9", amount: 1 }))).status).toBe(200);
    }
  });
});

describe("per-trigger body limit bounds", () => {
  test("1 and 104857600 are accepted, anything else is 400; the limit counts bytes, with a rejected row", async () => {
    for (const maxBodyBytes of [0, -1, 1.5, "10", 104_857_601, true]) {
      const r = await server.api("POST", "/api/triggers", { name: "bound", maxBodyBytes });
      expect([maxBodyBytes, r.status, r.body.details?.[0]?.path]).toEqual([maxBodyBytes, 400, "/maxBodyBytes"]);
    }
    expect((await server.createTrigger({ name: "max", maxBodyBytes: 104_857_600 })).maxBodyBytes).toBe(104_857_600);
    const one = await server.createTrigger({ name: "one", maxBodyBytes: 1 });
    expect((await post(one.url, "1")).status).toBe(200);
    const over = await post(one.url, "é");
    expect(over.status).toBe(413);
    expect(over.headers.get("x-request-id")).toMatch(UUID);
    expect((await server.activity(one.id)).map((r) => r.outcome)).toEqual(["rejected", "run"]);
  });
});

describe("XML content types and hostile XML", () => {
  test("text/xml and application/*+xml (any case, with parameters) are parsed; look-alikes are text; expression keys read attributes", async () => {
    const t = await server.createTrigger({ name: "xml-types", dedup: { strategy: "expression", expression: '$.e["@_id"]' } });
    const types = ["text/xml; charset=utf-8", "application/atom+xml", "Application/SOAP+XML; charset=UTF-8", "APPLICATION/XML"];
    for (const [i, type] of types.entries()) expect((await post(t.url, `<e id="${i}"><v>${i}</v></e>`, { "Content-Type": type })).status).toBe(200);
    // The same id again: deduplicated by the expression on the attribute.
    expect((await post(t.url, '<e id="0"><v>other</v></e>', { "Content-Type": "application/xml" })).status).toBe(200);
    expect((await post(t.url, "<e/>", { "Content-Type": "application/xml-dtd" })).status).toBe(200);
    const bodies = (await runsOf(t.id)).map((r) => r.trigger.body).reverse();
    expect(bodies).toEqual([...types.map((_, i) => ({ e: { "@_id": String(i), v: String(i) } })), "<e/>"]);
    expect((await server.activity(t.id)).map((r) => r.outcome)).toContain("deduplicated");
  });

  test("documents that are not well-formed are 400 invalid XML body; entity tricks are refused or inert", async () => {
    const t = await server.createTrigger({ name: "xml-hostile" });
    const xml = (body: BodyInit) => post(t.url, body, { "Content-Type": "application/xml" });
    const malformed = [
      "",
      "not xml",
      "<a/><b/>",
      "<a></a><b></b>",
      "<a/>trailing text",
      "<a/>text<!-- c -->",
      '<a x="1" x="2"/>',
      "<a>&</a>",
      '<!DOCTYPE a [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><a/>',
    ];
    for (const body of [...malformed, Uint8Array.from([0x3c, 0x61, 0x3e, 0xe9, 0x3c, 0x2f, 0x61, 0x3e])]) {
      const r = await xml(body);
      expect([body, r.status, await r.json()]).toEqual([body, 400, { error: "invalid XML body", request_id: r.headers.get("x-request-id") }]);
    }
    // A DOCTYPE that declares no entity is harmless: an undeclared reference stays literal text.
    expect((await xml('<!DOCTYPE a SYSTEM "file:///etc/passwd"><!-- c --><a>&xxe;</a><!-- after --><?pi x?>')).status).toBe(200);
    expect((await runsOf(t.id))[0].trigger.body).toEqual({ a: "&xxe;" });
    expect((await server.activity(t.id)).filter((r) => r.outcome === "rejected")).toHaveLength(malformed.length + 1);
  });
});
