import { expect, test } from "bun:test";
import { fieldsOf, headersObject } from "./literal_fields.ts";

test("every name is kept literally, repeated names as arrays of the real values, no prototype touched", () => {
  const fields = fieldsOf(new URLSearchParams("__proto__=a&constructor=b&toString=c&valueOf=d&plain=e&constructor=f&hasOwnProperty=g"));
  expect(JSON.stringify(fields)).toBe('{"__proto__":"a","constructor":["b","f"],"toString":"c","valueOf":"d","plain":"e","hasOwnProperty":"g"}');
  expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  expect(Object.keys(fields)).toEqual(["__proto__", "constructor", "toString", "valueOf", "plain", "hasOwnProperty"]);
  expect(({} as Record<string, unknown>).a).toBeUndefined();
});

test("headers: every name but the hidden ones, __proto__ included", () => {
  const headers = new Headers([["__proto__", "x"], ["Authorization", "secret"], ["X-Team", "ops"]]);
  const out = headersObject(headers, new Set(["authorization"]));
  expect(JSON.stringify(out)).toBe('{"__proto__":"x","x-team":"ops"}');
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
});
