import { expect, test } from "bun:test";
import { fieldsOf, headersObject, queryObject } from "./literal_fields.ts";

test("every name is kept literally, repeated names as arrays of the real values, no prototype touched", () => {
  const fields = fieldsOf(new URLSearchParams("__proto__=a&constructor=b&toString=c&valueOf=d&plain=e&constructor=f&hasOwnProperty=g"));
  expect(JSON.stringify(fields)).toBe('{"__proto__":"a","constructor":["b","f"],"toString":"c","valueOf":"d","plain":"e","hasOwnProperty":"g"}');
  expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  expect(Object.keys(fields)).toEqual(["__proto__", "constructor", "toString", "valueOf", "plain", "hasOwnProperty"]);
  expect(({} as Record<string, unknown>).a).toBeUndefined();
});

test("query: every field but the hidden ones, whatever their case, however often they repeat", () => {
  const hidden = new Set(["code"]);
  expect(queryObject("?code=s3cret&topic=a&Code=again&CODE=x&topic=b", hidden)).toEqual({ topic: ["a", "b"] });
  expect(queryObject("?code=s3cret", hidden)).toEqual({});
  expect(queryObject("", hidden)).toEqual({});
  expect(queryObject("?code=1&__proto__=p", new Set())).toEqual(fieldsOf(new URLSearchParams("code=1&__proto__=p")));
});

test("headers: every name but the hidden ones, __proto__ included", () => {
  const headers = new Headers([
    ["__proto__", "x"],
    ["Authorization", "secret"],
    ["X-Team", "ops"],
  ]);
  const out = headersObject(headers, new Set(["authorization"]));
  expect(JSON.stringify(out)).toBe('{"__proto__":"x","x-team":"ops"}');
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
});

test("headers: a repeated Set-Cookie is one string, its last value; a repeated other header its values joined", () => {
  const headers = new Headers();
  headers.append("Set-Cookie", "a=1");
  headers.append("Set-Cookie", "b=2");
  headers.append("Accept", "text/plain");
  headers.append("Accept", "application/json");
  const out = headersObject(headers, new Set());
  expect(out).toEqual({ "set-cookie": "b=2", accept: "text/plain, application/json" });
  for (const value of Object.values(out)) expect(typeof value).toBe("string");
});

test("headers: sorted by name, whatever order they arrived in, so the same headers make the same $trigger.headers", () => {
  const a = headersObject(
    new Headers([
      ["X-B", "2"],
      ["User-Agent", "curl"],
      ["X-A", "1"],
      ["Accept", "*/*"],
    ]),
    new Set(),
  );
  const b = headersObject(
    new Headers([
      ["Accept", "*/*"],
      ["X-A", "1"],
      ["X-B", "2"],
      ["User-Agent", "curl"],
    ]),
    new Set(),
  );
  expect(Object.keys(a)).toEqual(["accept", "user-agent", "x-a", "x-b"]);
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
});
