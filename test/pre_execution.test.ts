import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const send = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  server.fetch(url, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });
const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger&limit=500`)).body as any[];
const activity = (id: string) => server.activity(id);

describe("filter", () => {
  test("Include runs only when true; a skipped event is a 200 with a Filtered row and no run", async () => {
    const t = await server.createTrigger({ name: "inc", filter: { enabled: true, mode: "include", expression: '$.type == "order.paid" && $.amount > 100' } });
    for (const body of [
      { type: "order.paid", amount: 150 },
      { type: "order.paid", amount: 50 },
      { type: "order.created", amount: 500 },
    ]) {
      const r = await send(t.url, body);
      expect(r.status).toBe(200);
      expect((await r.json()).received).toBe(true);
    }
    expect((await runs(t.id)).map((r) => r.trigger.body.amount)).toEqual([150]);
    expect((await activity(t.id)).map((r) => r.label)).toEqual(["Filtered", "Filtered", "Run"]);
  });

  test("Exclude skips when true", async () => {
    const t = await server.createTrigger({ name: "exc", filter: { enabled: true, mode: "exclude", expression: "$.test == true || !$.user" } });
    await send(t.url, { test: true, user: "a" });
    await send(t.url, { test: false });
    await send(t.url, { test: false, user: "b" });
    expect((await runs(t.id)).map((r) => r.trigger.body.user)).toEqual(["b"]);
  });

  test("existence filters and functions", async () => {
    const t = await server.createTrigger({
      name: "fn",
      filter: { enabled: true, expression: "$.items[?@.price > 100] && length($.items) >= 2 && match($.sku, 'AB-[0-9]+') && search($.note, 'urgent')" },
    });
    await send(t.url, { items: [{ price: 50 }, { price: 150 }], sku: "AB-12", note: "this is urgent!" });
    await send(t.url, { items: [{ price: 50 }, { price: 60 }], sku: "AB-12", note: "urgent" });
    await send(t.url, { items: [{ price: 500 }, { price: 60 }], sku: "AB-12x", note: "urgent" });
    expect(await runs(t.id)).toHaveLength(1);
  });

  test("configuration-time errors help: =, bare words, non-singular comparisons", async () => {
    const cases: Array<[string, string]> = [
      ['$.type = "x"', "use =="],
      ["$.type == paid", "string literals need quotes"],
      ["$.items[*].price > 10", "[?@.price > 10]"],
    ];
    for (const [expression, hint] of cases) {
      const r = await server.api("POST", "/api/triggers", { name: "bad", filter: { enabled: true, expression } });
      expect(r.status).toBe(400);
      expect(r.body.details[0].path).toBe("/filter/expression");
      expect(r.body.details[0].message).toContain(hint);
      expect(r.body.details[0].message).toMatch(/position \d+/);
    }
  });
});

describe("redaction", () => {
  test("field names at every depth (arrays too) — never values — become [REDACTED] before $trigger is stored", async () => {
    const t = await server.createTrigger({ name: "pii", redaction: { enabled: true, patterns: ["^email$", "card", "^(ssn|social)"] } });
    const body = {
      Email: "jane@example.com",
      note: "my email is jane@example.com",
      customer: { email: "x@y.z", CardNumber: 4242424242424242, address: { city: "Oslo" } },
      items: [{ card: { last4: "4242" } }, { sku: "card" }],
      SSN: null,
    };
    expect((await send(t.url, body)).status).toBe(200);
    const [run] = await runs(t.id);
    expect(run.trigger.body).toEqual({
      Email: "[REDACTED]",
      note: "my email is jane@example.com",
      customer: { email: "[REDACTED]", CardNumber: "[REDACTED]", address: { city: "Oslo" } },
      items: [{ card: "[REDACTED]" }, { sku: "card" }],
      SSN: "[REDACTED]",
    });
    const stored = new TextDecoder().decode(new Uint8Array(await Bun.file(`${server.dataDir}/inlet.db`).arrayBuffer()));
    expect(stored.includes("4242424242424242")).toBe(false);
  });

  test("patterns are validated: count, length, syntax", async () => {
    const tooMany = await server.api("POST", "/api/triggers", {
      name: "p",
      redaction: { enabled: true, patterns: Array.from({ length: 51 }, (_, i) => `f${i}`) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0].path).toBe("/redaction/patterns");
    const tooLong = await server.api("POST", "/api/triggers", { name: "p", redaction: { enabled: true, patterns: ["x".repeat(201)] } });
    expect(tooLong.body.details[0].path).toBe("/redaction/patterns/0");
    const broken = await server.api("POST", "/api/triggers", { name: "p", redaction: { enabled: true, patterns: ["ok", "card("] } });
    expect(broken.status).toBe(400);
    expect(broken.body.details[0].path).toBe("/redaction/patterns/1");
    expect(broken.body.details[0].message).toContain("card(");
  });

  test("a catastrophic pattern ends at the deadline with a 500 and an error row, while other triggers keep answering", async () => {
    const slow = await server.createTrigger({ name: "redos", redaction: { enabled: true, patterns: ["^(a+)+$"] } });
    const fast = await server.createTrigger({ name: "fast" });
    const evil = { ["a".repeat(40) + "!"]: "value" };
    const started = performance.now();
    const [bad, ...others] = await Promise.all([send(slow.url, evil), ...Array.from({ length: 20 }, (_, i) => send(fast.url, { i }))]);
    expect(bad.status).toBe(500);
    expect(await bad.json()).toEqual({ error: "pre-execution check failed", request_id: bad.headers.get("x-request-id") });
    expect(others.every((r) => r.status === 200)).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
    const [row] = await activity(slow.id);
    expect(row.outcome).toBe("error");
    expect(row.label).toBe("Error");
    expect(row.detail).toMatch(/^pre-execution check failed: .*\b50 ms deadline\b/);
    expect(await runs(slow.id)).toHaveLength(0);
    // The sandbox is healthy afterwards.
    expect((await send(slow.url, { fine: 1 })).status).toBe(200);
    expect(await runs(fast.id)).toHaveLength(20);
  });
});

test("a check that blows the 32 MiB memory cap is a 500 with the reason in Activity, no run, and its dedup key unrecorded: the retry is not lost", async () => {
  // Each `(a|b)*` iteration leaves a backtracking state: ~0.9 M of them outgrow the heap in ~15 ms.
  const t = await server.createTrigger({ name: "hungry", dedup: { strategy: "payload-hash" }, filter: { enabled: true, expression: "match($.s, $.p)" } });
  // The pattern comes from the body, so it is a user regex for the sandbox (a literal I-Regexp runs on the linear engine).
  const body = { s: "a".repeat(900_000) + "c", p: "(a|b)*c" };
  // The first evaluations in a fresh worker run before the JIT warms up (and a busy machine is
  // slower): those meet the 50 ms deadline first. Sent again until the cap is what stops one.
  let sent = 0;
  let rows: any[] = [];
  while (sent < 12 && !rows.some((r) => r.detail.includes("ran out of memory"))) {
    const r = await send(t.url, body);
    sent++;
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ error: "pre-execution check failed", request_id: r.headers.get("x-request-id") });
    rows = await activity(t.id);
  }
  expect(rows.map((r) => r.outcome)).toEqual(Array(sent).fill("error"));
  expect(rows.every((r) => r.detail.startsWith("pre-execution check failed: sandbox evaluation "))).toBe(true);
  expect(rows[0].detail).toBe("pre-execution check failed: sandbox evaluation ran out of memory (out of memory in regexp execution)");
  expect(await runs(t.id)).toHaveLength(0);
  // The same bytes within the window, once the filter can decide: a run, not a duplicate of the failures.
  await server.api("PATCH", `/api/triggers/${t.id}`, { filter: { enabled: true, expression: "$.s != null" } });
  expect((await send(t.url, body)).status).toBe(200);
  expect(await runs(t.id)).toHaveLength(1);
});

test("expression dedup: the selected value is the key; none selected means no dedup", async () => {
  const t = await server.createTrigger({ name: "expr", dedup: { strategy: "expression", expression: "$.data.id" } });
  await send(t.url, { data: { id: "A" }, v: 1 });
  await send(t.url, { data: { id: "A" }, v: 2 });
  await send(t.url, { data: { id: "B" } });
  await send(t.url, { other: 1 });
  await send(t.url, { other: 1 });
  expect(await runs(t.id)).toHaveLength(4);
  const bad = await server.api("POST", "/api/triggers", { name: "x", dedup: { strategy: "expression", expression: "data.id" } });
  expect(bad.status).toBe(400);
  expect(bad.body.details[0].path).toBe("/dedup/expression");
});

test("order: dedup before filter, filter before redaction; a filtered event's key is still recorded", async () => {
  const t = await server.createTrigger({
    name: "order",
    dedup: { strategy: "payload-hash" },
    filter: { enabled: true, expression: "$.keep == true" },
    redaction: { enabled: true, patterns: ["secret"] },
  });
  await send(t.url, { keep: false, secret: 1 });
  await send(t.url, { keep: false, secret: 1 });
  await send(t.url, { keep: true, secret: 2 });
  expect((await activity(t.id)).map((r) => r.outcome)).toEqual(["run", "deduplicated", "filtered"]);
  expect((await runs(t.id))[0].trigger.body).toEqual({ keep: true, secret: "[REDACTED]" });
});

describe("POST /api/check", () => {
  const check = (body: unknown) => server.api("POST", "/api/check", body);
  test("jsonpath: nodelist values in document order", async () => {
    expect((await check({ kind: "jsonpath", expression: "$.items[*].id", sample: { items: [{ id: 1 }, { id: 2 }] } })).body).toEqual({
      ok: true,
      result: [1, 2],
    });
    expect((await check({ kind: "jsonpath", expression: "$.a" })).body).toEqual({ ok: true });
    const bad = (await check({ kind: "jsonpath", expression: "$.a[" })).body;
    expect(bad.ok).toBe(false);
    expect(bad.error).toContain("position");
  });
  test("filter: true or false; helpful errors", async () => {
    expect((await check({ kind: "filter", expression: '$.type == "a"', sample: { type: "a" } })).body).toEqual({ ok: true, result: true });
    expect((await check({ kind: "filter", expression: '$.type == "a"', sample: { type: "b" } })).body).toEqual({ ok: true, result: false });
    expect((await check({ kind: "filter", expression: '$.type = "a"' })).body.error).toContain("use ==");
  });
  test("regex: the sample with redaction applied", async () => {
    const r = await check({ kind: "regex", expression: "^email$\ncard", sample: { email: "a@b", Card_No: 1, other: "email" } });
    expect(r.body).toEqual({ ok: true, result: { email: "[REDACTED]", Card_No: "[REDACTED]", other: "email" } });
    expect((await check({ kind: "regex", expression: "(unclosed" })).body.ok).toBe(false);
    const slow = await check({ kind: "regex", expression: "^(a+)+$", sample: { ["a".repeat(40) + "!"]: 1 } });
    expect(slow.body.ok).toBe(false);
  });
  test("bad input is a 400", async () => {
    const r = await check({ kind: "sql", expression: 1 });
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: any) => d.path).sort()).toEqual(["/expression", "/kind"]);
  });
});
