import { describe, expect, test } from "bun:test";
import { compileIRegexp } from "../jsonpath/iregexp.ts";
import { linearRegex } from "./linear_regex.ts";

describe("linearRegex answers as the ECMAScript translation does", () => {
  const cases: Array<[string, string[]]> = [
    [".*@example\\.com", ["jane@example.com", "jane@example.org", "@example.com", "a\n@example.com"]],
    ["^ab.*", ["abc", "xabc", "ab"]],
    ["[a-c]+x?", ["abc", "abcx", "abd", ""]],
    ["\\p{Lu}\\p{Ll}*", ["Émile", "émile", "Ω"]],
    ["a{2,3}", ["a", "aa", "aaa", "aaaa"]],
    [".", ["😀", "\r", "\u2028", "ab"]],
    ["[^\\-\\]]", ["-", "]", "x"]],
    ["(a|ab)(c|bcd)", ["abcd", "abc", "ac"]],
    ["\\t\\n", ["\t\n", "t n"]],
    ["[😀-😂]", ["😁", "😃"]],
  ];
  for (const [pattern, values] of cases) {
    test(pattern, () => {
      for (const whole of [true, false]) {
        const reference = compileIRegexp(pattern, whole)!;
        const linear = linearRegex(pattern, whole ? "jsonpath-match" : "jsonpath-search")!;
        for (const value of values)
          expect({ pattern, whole, value, matched: linear.test(value) }).toEqual({ pattern, whole, value, matched: reference.test(value) });
      }
    });
  }
});

test("a JSON Schema pattern reads `.` as ECMAScript does: no line terminator", () => {
  const schemaDot = linearRegex("^a.b$", "ecmascript")!;
  for (const value of ["axb", "a\u2028b", "a\nb", "a\rb", "a😀b"]) expect(schemaDot.test(value)).toBe(new RegExp("^a.b$", "u").test(value));
  expect(linearRegex("^evt_[A-Za-z0-9_]+$", "ecmascript")!.test("evt_1Nq2")).toBe(true);
  // Unanchored, as a schema pattern is.
  expect(linearRegex("b", "ecmascript")!.test("abc")).toBe(true);
});

test("patterns outside I-Regexp, or beyond RE2's limits, are left to the sandbox", () => {
  for (const pattern of ["(?=a)", "\\d+", "(a)\\1", "a{1001}", "[", "a**"]) {
    expect({ pattern, compiled: linearRegex(pattern, "ecmascript") }).toEqual({ pattern, compiled: null });
  }
});

test("a pattern that backtracks catastrophically elsewhere answers in linear time", () => {
  const re = linearRegex("(a+)+b", "jsonpath-match")!;
  // JavaScriptCore's backtracking engine would not finish this in a human lifetime.
  expect(re.test("a".repeat(50_000))).toBe(false);
  expect(re.test("a".repeat(50_000) + "b")).toBe(true);
});
