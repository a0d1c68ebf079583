import { describe, expect, test } from "bun:test";
import { thrown } from "../../test/support/values.ts";
import { InvalidBody, isJsonType, jsonDepth, jsonShape, parseBodyAndText } from "./body_parsers.ts";
import { ExactNumber } from "../json/index.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("jsonDepth", () => {
  test("counts bracket nesting, objects and arrays alike", () => {
    expect(jsonDepth(bytes("1"), 256)).toBe(0);
    expect(jsonDepth(bytes('{"a":[1,{"b":[]}],"c":{}}'), 256)).toBe(4);
  });

  test("brackets and escaped quotes inside strings do not count", () => {
    expect(jsonDepth(bytes('{"a":"[[[{{{"}'), 256)).toBe(1);
    expect(jsonDepth(bytes('["x\\"[[[", "\\\\", [1]]'), 256)).toBe(2);
  });

  test("stops counting once past the limit", () => {
    expect(jsonDepth(bytes("[".repeat(1000) + "]".repeat(1000)), 256)).toBe(257);
  });
});

test("a body nested 256 deep parses; 257 is refused as invalid_body", () => {
  const nested = (n: number) => bytes("[".repeat(n) + "]".repeat(n));
  expect(() => parseBodyAndText(nested(256), "application/json").value).not.toThrow();
  expect(() => parseBodyAndText(nested(257), "application/json").value).toThrow(InvalidBody);
});

test("an invalid JSON body's reason (kept in Activity) names what is wrong, never a word of the body", () => {
  const reason = (text: string) => (thrown(() => parseBodyAndText(bytes(text), "application/json").value) as InvalidBody).message;
  expect(reason('{"password": hunter2-secret}')).toBe("body is not valid JSON: JSON Parse error: Unexpected identifier");
  expect(reason('{"card": 4242 4242}')).toStartWith("body is not valid JSON: ");
  expect(reason('{"card": 4242 4242}')).not.toContain("4242");
});

test("JSON content types, with and without parameters and in any case", () => {
  for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", "text/json", "application/vnd.api+json"])
    expect(isJsonType(type)).toBe(true);
  for (const type of [null, "", "text/plain", "application/jsonp", "application/x-www-form-urlencoded"]) expect(isJsonType(type)).toBe(false);
});

test("numbers a double cannot hold are kept as sent, and counted; the text as received goes with them", () => {
  const text = '{"id":9007199254740993,"big":1e400,"long":0.1000000000000000055511151231257827,"n":1}';
  const parsed = parseBodyAndText(bytes(text), "application/json");
  expect(parsed.exactNumbers).toBe(3);
  expect(parsed.jsonText).toBe(text);
  expect(JSON.stringify(parsed.value)).toBe(text);
  expect((parsed.value as { id: unknown }).id).toEqual(new ExactNumber("9007199254740993"));
  expect(parseBodyAndText(bytes('{"n":1,"id":"evt_2e3"}'), "application/json")).toEqual({
    value: { n: 1, id: "evt_2e3" },
    jsonText: '{"n":1,"id":"evt_2e3"}',
    exactNumbers: 0,
    textMembers: 2,
  });
});

test("jsonShape counts object members outside strings, a duplicate name each time", () => {
  const enc = (t: string) => new TextEncoder().encode(t);
  expect(jsonShape(enc('{"a":1,"b":{"c":[{"d":2}]}}'), 256)).toEqual({ depth: 4, members: 4 });
  expect(jsonShape(enc(JSON.stringify({ "a:b": "c:d", "e\\": 'f\\":g' })), 256)).toEqual({ depth: 1, members: 2 });
  expect(jsonShape(enc('{"u":1,"u":2}'), 256).members).toBe(2);
  expect(jsonShape(enc("[1,2,3]"), 256)).toEqual({ depth: 1, members: 0 });
});
