import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withPinnedClock } from "./support/clock.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const send = (url: string, body: string, headers: Record<string, string> = {}) =>
  server.fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });
const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&limit=500`)).body as any[];
const outcomes = async (id: string) => ((await server.api("GET", `/api/triggers/${id}/activity?limit=500`)).body as any[]).map((r) => r.outcome);

describe("strategies", () => {
  test("event-id reads the well-known paths in order; a body without one is not deduplicated", async () => {
    const t = await server.createTrigger({ name: "eid", dedup: { strategy: "event-id" } });
    for (const body of [
      { event_id: "a" },
      { event_id: "a", id: "other" },
      { eventId: "b" },
      { event: { id: "c" } },
      { meta: { event_id: "d" } },
      { webhook_id: "e" },
      { delivery_id: "f" },
      { id: 7 },
    ]) {
      expect((await send(t.url, JSON.stringify(body))).status).toBe(200);
    }
    // Duplicates of each: same keys, other bytes.
    for (const body of [
      { event_id: "a", extra: 1 },
      { eventId: "b", x: 2 },
      { event: { id: "c" }, y: 1 },
      { id: 7, z: true },
    ]) {
      expect((await send(t.url, JSON.stringify(body))).status).toBe(200);
    }
    await send(t.url, JSON.stringify({ nothing: 1 }));
    await send(t.url, JSON.stringify({ nothing: 1 }));
    expect(await runs(t.id)).toHaveLength(7 + 2);
    expect((await outcomes(t.id)).filter((o) => o === "deduplicated")).toHaveLength(5);
  });

  test("payload-hash: byte-identical bodies collapse; logically equal ones with other bytes do not", async () => {
    const t = await server.createTrigger({ name: "ph", dedup: { strategy: "payload-hash" } });
    await send(t.url, '{"a":1,"b":2}');
    await send(t.url, '{"a":1,"b":2}');
    await send(t.url, '{"b":2,"a":1}');
    await send(t.url, '{"a":1, "b":2}');
    expect(await runs(t.id)).toHaveLength(3);
    expect(await outcomes(t.id)).toEqual(["run", "run", "deduplicated", "run"]);
  });

  test("payload-hash collapses a replayed HMAC-signed request", async () => {
    const t = await server.createTrigger({ name: "replay", auth: { type: "hmac-sha256" }, dedup: { strategy: "payload-hash" } });
    const body = '{"amount":100}';
    const sig = new Bun.CryptoHasher("sha256", t.secret).update(body).digest("hex");
    expect((await send(t.url, body, { "X-Signature": sig })).status).toBe(200);
    expect((await send(t.url, body, { "X-Signature": sig })).status).toBe(200);
    expect(await runs(t.id)).toHaveLength(1);
  });

  test("header-value: the configured header's value; absent header means no dedup", async () => {
    const t = await server.createTrigger({ name: "hv", dedup: { strategy: "header-value", headerName: "Idempotency-Key" } });
    await send(t.url, "{}", { "idempotency-key": "k1" });
    await send(t.url, '{"other":true}', { "Idempotency-Key": "k1" });
    await send(t.url, "{}", { "Idempotency-Key": "k2" });
    await send(t.url, "{}");
    await send(t.url, "{}");
    expect(await runs(t.id)).toHaveLength(4);
  });

  test("the key is per trigger", async () => {
    const a = await server.createTrigger({ name: "a", dedup: { strategy: "payload-hash" } });
    const b = await server.createTrigger({ name: "b", dedup: { strategy: "payload-hash" } });
    await send(a.url, '{"same":1}');
    await send(b.url, '{"same":1}');
    expect(await runs(a.id)).toHaveLength(1);
    expect(await runs(b.id)).toHaveLength(1);
  });

  test("keys are stored hashed, never raw", async () => {
    const t = await server.createTrigger({ name: "hashed", dedup: { strategy: "header-value", headerName: "X-Key" } });
    await send(t.url, "{}", { "X-Key": "very-recognisable-raw-key-value" });
    const { Database } = await import("bun:sqlite");
    const db = new Database(`${server.dataDir}/inlet.db`, { readonly: true });
    const rows = db.query("SELECT key_hash FROM dedup_keys WHERE trigger_id = ?").all(t.id) as { key_hash: string }[];
    db.close();
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].key_hash).not.toContain("recognisable");
  });
});

test("many concurrent identical requests produce exactly one run; every request is answered 200", async () => {
  const t = await server.createTrigger({ name: "burst", dedup: { strategy: "payload-hash" } });
  const responses = await Promise.all(Array.from({ length: 100 }, () => send(t.url, '{"order":"ord_42"}')));
  expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
  expect(await runs(t.id)).toHaveLength(1);
  const all = await outcomes(t.id);
  expect(all).toHaveLength(100);
  expect(all.filter((o) => o === "run")).toHaveLength(1);
  expect(all.filter((o) => o === "deduplicated")).toHaveLength(99);
});

test("the window is fixed from the first sighting (a duplicate does not extend it), ends after exactly windowSeconds; expired keys are swept", async () => {
  const t = await server.createTrigger({ name: "win", dedup: { strategy: "payload-hash", windowSeconds: 10 } });
  await withPinnedClock(async (clock) => {
    const first = clock.now();
    await send(t.url, '{"w":1}');
    clock.set(first + 6_000);
    await send(t.url, '{"w":1}');
    // A window sliding from the last sighting would still hold until first + 16 s.
    clock.set(first + 9_999);
    await send(t.url, '{"w":1}');
    clock.set(first + 10_000);
    await send(t.url, '{"w":1}');
    // The second sighting's key: its own window, from now.
    clock.set(first + 19_999);
    await send(t.url, '{"w":1}');
    expect(await outcomes(t.id)).toEqual(["deduplicated", "run", "deduplicated", "deduplicated", "run"]);
    clock.set(first + 20_000);
    expect((await server.core.store.sweep(new Date(), new Date(0))).dedupKeys).toBeGreaterThanOrEqual(1);
    await send(t.url, '{"w":1}');
    expect(await runs(t.id)).toHaveLength(3);
  });
});

test("header-value: an empty value is no key, like an absent header (it would collapse every such request)", async () => {
  const t = await server.createTrigger({ name: "hv-empty", dedup: { strategy: "header-value", headerName: "Idempotency-Key" } });
  await send(t.url, '{"n":1}', { "Idempotency-Key": "" });
  await send(t.url, '{"n":2}', { "Idempotency-Key": "" });
  expect(await outcomes(t.id)).toEqual(["run", "run"]);
});

test("expression: several nodes are the array of their values; an object key is its value whatever the key order", async () => {
  const many = await server.createTrigger({ name: "expr-many", dedup: { strategy: "expression", expression: "$.items[*].id" } });
  await send(many.url, '{"items":[{"id":1},{"id":2}],"at":1}');
  await send(many.url, '{"items":[{"id":1,"qty":5},{"id":2}],"at":2}');
  await send(many.url, '{"items":[{"id":2},{"id":1}]}');
  expect(await outcomes(many.id)).toEqual(["run", "deduplicated", "run"]);
  const object = await server.createTrigger({ name: "expr-object", dedup: { strategy: "expression", expression: "$.key" } });
  await send(object.url, '{"key":{"a":1,"b":[1,2]}}');
  await send(object.url, '{"key":{"b":[1,2],"a":1},"other":true}');
  expect(await outcomes(object.id)).toEqual(["deduplicated", "run"]);
});
