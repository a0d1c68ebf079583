import { expect, test } from "bun:test";
import { sha256Hex } from "../auth/digest.ts";
import { parseJson } from "../json/index.ts";
import { canonicalJson } from "./canonical_json.ts";
import { appDedupKeyHash, dedupKeyHash, eventIdOf, type KeyInput } from "./dedup_key.ts";

const input = (body: unknown, headers: Record<string, string> = {}, raw = "{}"): KeyInput => ({
  headers: new Headers(headers),
  rawBody: new TextEncoder().encode(raw),
  body: () => body,
});

test("event-id reads the first present string or number of the well-known paths, in order", () => {
  expect(eventIdOf({ id: "last", event: { id: "evt_2" }, eventId: "evt_1" })).toBe("evt_1");
  expect(eventIdOf({ meta: { event_id: 7 }, id: "x" })).toBe("7");
  expect(eventIdOf({ event_id: "", id: "fallback" })).toBe("fallback");
  expect(eventIdOf({ event_id: { nested: 1 }, webhook_id: true })).toBeNull();
  expect(eventIdOf([{ id: "in an array" }])).toBeNull();
  // An inherited property is not a field of the body.
  expect(eventIdOf(JSON.parse('{"__proto__":{"id":"p"}}'))).toBeNull();
});

test("keys are stored only as SHA-256, scoped by strategy", async () => {
  const byHeader = await dedupKeyHash({ strategy: "header-value", headerName: "Idempotency-Key" }, input(null, { "Idempotency-Key": "k1" }));
  expect(byHeader).toBe(sha256Hex("header-value\u0000k1"));
  const byEvent = await dedupKeyHash({ strategy: "event-id" }, input({ id: "k1" }));
  expect(byEvent).toBe(sha256Hex("event-id\u0000k1"));
  expect(byEvent).not.toBe(byHeader);
});

test("payload-hash covers the exact bytes, not the parsed value", async () => {
  const a = await dedupKeyHash({ strategy: "payload-hash" }, input({ a: 1 }, {}, '{"a":1}'));
  const b = await dedupKeyHash({ strategy: "payload-hash" }, input({ a: 1 }, {}, '{"a": 1}'));
  expect(a).not.toBe(b);
});

test("no key in the request means no dedup for it", async () => {
  expect(await dedupKeyHash({ strategy: "header-value", headerName: "Idempotency-Key" }, input(null))).toBeNull();
  expect(await dedupKeyHash({ strategy: "event-id" }, input({ other: 1 }))).toBeNull();
  expect(await dedupKeyHash({ strategy: "expression", expression: "$.id" }, input(undefined), () => ["x"])).toBeNull();
  expect(await dedupKeyHash({ strategy: "expression", expression: "$.id" }, input({}), async () => [])).toBeNull();
  expect(await dedupKeyHash({ strategy: "disabled" }, input({ id: 1 }))).toBeNull();
});

test("expression keys: one node is its canonical value, several the array of their values", async () => {
  const one = await dedupKeyHash({ strategy: "expression", expression: "$.a" }, input({}), async () => [{ y: 1, x: 2 }]);
  expect(one).toBe(sha256Hex(`expression\u0000${canonicalJson({ x: 2, y: 1 })}`));
  const many = await dedupKeyHash({ strategy: "expression", expression: "$.a[*]" }, input({}), () => [1, "1"]);
  expect(many).toBe(sha256Hex('expression\u0000[1,"1"]'));
});

test("app keys: the delivery id when there is one, else the exact body's hash", () => {
  const raw = new TextEncoder().encode("body");
  expect(appDedupKeyHash("d-1", raw)).toEqual({ hash: sha256Hex("delivery\u0000d-1"), byContent: false });
  expect(appDedupKeyHash("", raw)).toEqual({ hash: sha256Hex(`content\u0000${sha256Hex(raw)}`), byContent: true });
  expect(appDedupKeyHash(null, raw).byContent).toBe(true);
});

test("canonical JSON sorts keys at every depth", () => {
  expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
  expect(canonicalJson(undefined)).toBe("null");
});

test("two different ids beyond 2^53 are two keys, by expression and by event id; the same id is one key", async () => {
  const body = (text: string) => parseJson(text);
  const byExpression = (text: string) => dedupKeyHash({ strategy: "expression", expression: "$.id" }, input(body(text)), (b) => [(b as { id: unknown }).id]);
  const a = await byExpression('{"id":9007199254740993}');
  expect(a).not.toBe(await byExpression('{"id":9007199254740992}'));
  expect(a).toBe(await byExpression('{"id":9007199254740993.0}'));
  expect(a).toBe(sha256Hex("expression\u00009007199254740993"));
  const byEvent = (text: string) => dedupKeyHash({ strategy: "event-id" }, input(body(text)));
  expect(await byEvent('{"id":9007199254740993}')).not.toBe(await byEvent('{"id":9007199254740992}'));
  expect(eventIdOf(body('{"event_id":12345678901234567890}'))).toBe("12345678901234567890");
  expect(eventIdOf(body('{"event_id":1e400}'))).toBe("1e+400");
});

test("canonical JSON writes every digit of a number a double cannot hold", () => {
  expect(canonicalJson(parseJson('{"b":[1e400],"a":9007199254740993,"c":0.1000000000000000055511151231257827}'))).toBe(
    '{"a":9007199254740993,"b":[1e+400],"c":0.1000000000000000055511151231257827}',
  );
});
