import { expect, test } from "bun:test";
import { headerNameProblem, headerValueProblem } from "./header_field.ts";

test("a header name is an HTTP token: no space, colon, control character or non-ASCII letter", () => {
  expect(headerNameProblem("X-Source")).toBeNull();
  expect(headerNameProblem("x_a.b~c|d'e")).toBeNull();
  expect(headerNameProblem("")).toContain("empty");
  expect(headerNameProblem("X Source")).toStartWith('has " " (U+0020) at position 2');
  expect(headerNameProblem("X-A:b")).toContain('":" (U+003A)');
  expect(headerNameProblem("X-A\r\n")).toContain("carriage return (U+000D) at position 4");
  expect(headerNameProblem("Ünit")).toContain("U+00DC");
});

test("a header value has no control character but tab, and nothing past Latin-1", () => {
  expect(headerValueProblem("Bearer abc")).toBeNull();
  expect(headerValueProblem("a\tb")).toBeNull();
  expect(headerValueProblem("café")).toBeNull();
  expect(headerValueProblem("")).toBeNull();
  expect(headerValueProblem("a\r\nX-Evil: 1")).toStartWith("has carriage return (U+000D) at position 2");
  expect(headerValueProblem("a\nb")).toContain("line feed (U+000A)");
  expect(headerValueProblem("a\0b")).toContain("NUL (U+0000)");
  expect(headerValueProblem("a\u0001b")).toContain("a control character (U+0001)");
  expect(headerValueProblem("a\u007fb")).toContain("DEL (U+007F)");
  expect(headerValueProblem("5 €")).toStartWith('has "€" (U+20AC) at position 3');
  expect(headerValueProblem("🙂")).toContain("(U+1F642) at position 1");
});
