import { describe, expect, test } from "bun:test";
import { InvalidBody, isJsonType, jsonDepth, parseBody } from "./parse_body.ts";

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
  expect(() => parseBody(nested(256), "application/json")).not.toThrow();
  expect(() => parseBody(nested(257), "application/json")).toThrow(InvalidBody);
});

test("JSON content types, with and without parameters and in any case", () => {
  for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", "text/json", "application/vnd.api+json"]) expect(isJsonType(type)).toBe(true);
  for (const type of [null, "", "text/plain", "application/jsonp", "application/x-www-form-urlencoded"]) expect(isJsonType(type)).toBe(false);
});
