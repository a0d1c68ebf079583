import { expect, test } from "bun:test";
import { distinctJoined, parsedByHooks, parseJson, stringAt, valueAt } from "./json_body.ts";
import { ExactNumber } from "../json/index.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

test("the JSON body readers never throw: no value where the body or a step is missing", () => {
  expect(parseJson(bytes('{"type":"ping"}'))).toEqual({ type: "ping" });
  expect(parseJson(bytes("{not json"))).toBeUndefined();
  expect(parseJson(new Uint8Array([0x22, 0xff, 0x22]))).toBe("\ufffd");
  const body = { subscription: { type: "channel.follow", n: 3 }, list: [{ type: "x" }] };
  expect(valueAt(body, "subscription", "type")).toBe("channel.follow");
  expect(valueAt(body, "subscription", "missing", "deeper")).toBeUndefined();
  // Own fields only: nothing is read off a prototype.
  expect(valueAt({}, "constructor")).toBeUndefined();
  expect(valueAt({ a: {} }, "a", "toString")).toBeUndefined();
  expect(valueAt(body, "list", "0")).toBeUndefined(); // arrays are not stepped into
  expect(valueAt("text", "a")).toBeUndefined();
  expect(stringAt(body, "subscription", "type")).toBe("channel.follow");
  expect(stringAt(body, "subscription", "n")).toBeNull();
  expect(stringAt({ type: "" }, "type")).toBeNull();
  expect(distinctJoined(["a", null, "b", "a"])).toBe("a,b");
  expect(distinctJoined([null])).toBeNull();
});

test("a body is parsed once, whichever hooks ask: the same value for the same bytes, none shared between bodies", () => {
  const raw = bytes('{"id":"evt_1"}');
  expect(parsedByHooks(raw)).toBeNull();
  const first = parseJson(raw);
  expect(parseJson(raw)).toBe(first);
  expect(parsedByHooks(raw)).toEqual({ value: first, exactNumbers: 0 });
  const same = bytes('{"id":"evt_1"}');
  expect(parseJson(same)).not.toBe(first);
  expect(parseJson(same)).toEqual(first);
  const broken = bytes("{not json");
  expect(parseJson(broken)).toBeUndefined();
  expect(parsedByHooks(broken)).toBeNull();
});

test("numbers a double cannot hold are read with every digit (ExactNumber), and counted for the host", () => {
  const raw = bytes('{"id":9007199254740993,"n":1}');
  expect(valueAt(parseJson(raw), "id")).toEqual(new ExactNumber("9007199254740993"));
  expect(String(valueAt(parseJson(raw), "id"))).toBe("9007199254740993");
  expect(parsedByHooks(raw)?.exactNumbers).toBe(1);
});
