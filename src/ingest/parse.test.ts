import { expect, test } from "bun:test";
import { arrivalOf, triggerRecord } from "../../test/support/ingest.ts";
import { authenticateRequest, type Verified } from "./authenticate.ts";
import { Ending } from "./ending.ts";
import { genericProtocol } from "./generic_protocol.ts";
import { parse, ParsedBody } from "./parse.ts";
import { parseJson } from "../plugins/json_body.ts";
import { ExactNumber } from "../json/index.ts";

const trigger = triggerRecord({ methods: ["GET", "POST"] });

async function verified(init: RequestInit & { query?: string }, raw: string): Promise<Verified> {
  return (await authenticateRequest(genericProtocol(trigger, {}), arrivalOf(trigger, init), new TextEncoder().encode(raw))) as Verified;
}

test("a JSON body parses once, however often it is asked for", async () => {
  const v = await verified({ headers: { "Content-Type": "application/json" } }, '{"a":[1,2]}');
  const body = new ParsedBody(v);
  const first = body.value();
  expect(first).toEqual({ a: [1, 2] });
  expect(body.value()).toBe(first);
  expect(parse(body, v.arrival.requestId)).toEqual({ value: first });
});

test("bytes a plugin's hook parsed already (a delivery id in the body) are not parsed again: the host takes that value", async () => {
  const v = await verified({ headers: { "Content-Type": "application/json" } }, '{"id":"evt_1","data":{"n":1}}');
  const byHook = parseJson(v.rawBody);
  const parseText = JSON.parse;
  let parses = 0;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    parses++;
    return parseText(text, reviver);
  }) as typeof JSON.parse;
  try {
    expect(parseJson(v.rawBody)).toBe(byHook); // every hook of the request: one parse
    const body = new ParsedBody(v);
    expect(body.value()).toBe(byHook);
    expect(body.jsonText()).toBe('{"id":"evt_1","data":{"n":1}}');
  } finally {
    JSON.parse = parseText;
  }
  expect(parses).toBe(0);
});

test("what a hook parsed leniently is still refused by the host's checks: bytes that are not UTF-8, nesting past the limit", async () => {
  const bad = await verified({ headers: { "Content-Type": "application/json" } }, "");
  const invalidUtf8 = { ...bad, rawBody: new Uint8Array([0x22, 0xff, 0x22]) };
  expect(parseJson(invalidUtf8.rawBody)).toBe("\ufffd");
  expect((parse(new ParsedBody(invalidUtf8), bad.arrival.requestId) as Ending).outcome).toBe("rejected");
  const deep = await verified({ headers: { "Content-Type": "application/json" } }, "[".repeat(300) + "]".repeat(300));
  expect(parseJson(deep.rawBody)).toBeArray();
  expect((parse(new ParsedBody(deep), deep.arrival.requestId) as Ending).outcome).toBe("rejected");
});

test("invalid JSON under a JSON type is 400 with a durable rejected row", async () => {
  const v = await verified({ headers: { "Content-Type": "application/json" } }, "{broken");
  const body = new ParsedBody(v);
  expect(body.valueOrUndefined()).toBeUndefined();
  const ending = parse(body, v.arrival.requestId) as Ending;
  expect(ending.outcome).toBe("rejected");
  expect(ending.durable).toBe(true);
  expect(await ending.response.json()).toEqual({ error: "invalid JSON body", request_id: v.arrival.requestId });
});

test("a GET request's query parameters stand as its body", async () => {
  const v = await verified({ method: "GET", query: "?a=1&a=2&b=x" }, "");
  expect(new ParsedBody(v).value()).toEqual({ a: ["1", "2"], b: "x" });
});

test("other content types are the body as a string", async () => {
  const v = await verified({ headers: { "Content-Type": "text/plain" } }, "hello");
  expect(new ParsedBody(v).value()).toBe("hello");
});

test("a JSON body that is not valid UTF-8 is 400, never stored with U+FFFD in its place", async () => {
  for (const bytes of [
    [0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0x61, 0xff, 0xfe, 0xc3, 0x62, 0x22, 0x7d],
    [0x22, 0xc0, 0xaf, 0x22],
    [0x22, 0xed, 0xa0, 0x80, 0x22],
    [0x22, 0xe2, 0x82, 0x22],
  ]) {
    const raw = Uint8Array.from(bytes);
    const v = (await authenticateRequest(
      genericProtocol(trigger, {}),
      arrivalOf(trigger, { headers: { "Content-Type": "application/json" } }),
      raw,
    )) as Verified;
    const ending = parse(new ParsedBody(v), v.arrival.requestId) as Ending;
    expect(ending.response.status).toBe(400);
    expect(ending.detail).toContain("not valid UTF-8");
  }
});

test("JSON Schema sees a number a double cannot hold as the nearest double; everything else sees it exactly", async () => {
  const v = await verified({ headers: { "Content-Type": "application/json" } }, '{"id":9007199254740993,"huge":1e400,"n":1}');
  const body = new ParsedBody(v);
  expect((body.value() as { id: unknown }).id).toEqual(new ExactNumber("9007199254740993"));
  expect(body.valueForSchema()).toEqual({ id: 9007199254740992, huge: Infinity, n: 1 });
  const plain = new ParsedBody(await verified({ headers: { "Content-Type": "application/json" } }, '{"n":1}'));
  expect(plain.valueForSchema()).toBe(plain.value());
});

test("a hook's parse keeps numbers exactly too, and the host takes it as is", async () => {
  const v = await verified({ headers: { "Content-Type": "application/json" } }, '[{"eventId":9007199254740993}]');
  const byHook = parseJson(v.rawBody) as Array<{ eventId: unknown }>;
  expect(byHook[0].eventId).toEqual(new ExactNumber("9007199254740993"));
  const body = new ParsedBody(v);
  expect(body.value()).toBe(byHook);
  expect(body.valueForSchema()).toEqual([{ eventId: 9007199254740992 }]);
});
