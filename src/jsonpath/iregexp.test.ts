import { describe, expect, test } from "bun:test";
import { cachedPatternCount, compileIRegexp, translateIRegexp } from "./iregexp.ts";

const matches = (pattern: string, value: string) => compileIRegexp(pattern, true)?.test(value) ?? false;

describe("I-Regexp (RFC 9485) to ECMAScript", () => {
  test("valid patterns", () => {
    for (const p of [
      "",
      "a|",
      "()",
      "a*b+c?",
      "a{2}",
      "a{2,}",
      "a{2,3}",
      "[a-z]",
      "[^a-z]",
      "[-a]",
      "[a-]",
      "[-]",
      "[--]",
      "\\p{Lu}",
      "\\P{L}",
      "[\\p{Nd}x]",
      "\\.\\\\\\[\\]\\(\\)\\{\\}\\|\\^\\-\\?\\*\\+",
      "\\n\\r\\t",
      "[\\n-\\r]",
      "x\u{1F600}y",
      "[\u{1F600}-\u{1F64F}]",
      "-",
      ",",
      "/",
    ]) {
      expect({ p, valid: translateIRegexp(p) !== null }).toEqual({ p, valid: true });
      expect(compileIRegexp(p, true)).not.toBeNull();
    }
  });

  test("patterns outside I-Regexp are rejected", () => {
    for (const p of [
      "(",
      ")",
      "[",
      "]",
      "}",
      "{2}",
      "a**",
      "a{2,1}",
      "a{,2}",
      "[]",
      "[^]",
      "[a-b-c]",
      "[z-a]",
      "[\\p{L}-z]",
      "\\d",
      "\\w",
      "\\s",
      "\\b",
      "\\1",
      "(?:a)",
      "(?=a)",
      "\\p{IsBasicLatin}",
      "\\p{Cs}",
      "\\x41",
      "\\u0041",
      "[[a]]",
      "a\uD800",
    ]) {
      expect({ p, valid: translateIRegexp(p) }).toEqual({ p, valid: null });
    }
  });

  test("dot matches any code point but \\n and \\r; classes and escapes are literal", () => {
    expect(matches(".", "\u2028")).toBe(true);
    expect(matches(".", "\u{1F600}")).toBe(true);
    expect(matches(".", "\n")).toBe(false);
    expect(matches(".", "\r")).toBe(false);
    expect(matches("a[.]c", "abc")).toBe(false);
    expect(matches("a\\.c", "a.c")).toBe(true);
    expect(matches("a/b", "a/b")).toBe(true);
    expect(matches("\\p{Lu}+", "ÀB")).toBe(true);
  });

  test("match() is anchored, search() is not", () => {
    expect(compileIRegexp("b", true)!.test("abc")).toBe(false);
    expect(compileIRegexp("b", false)!.test("abc")).toBe(true);
    expect(compileIRegexp("a|b", true)!.test("ab")).toBe(false);
  });

  test("the compiled-pattern cache stays bounded", () => {
    for (let i = 0; i < 2000; i++) compileIRegexp(`p${i}`, i % 2 === 0);
    expect(cachedPatternCount()).toBeLessThanOrEqual(256);
    const before = cachedPatternCount();
    expect(compileIRegexp("a".repeat(5000), true)!.test("a".repeat(5000))).toBe(true);
    expect(cachedPatternCount()).toBe(before);
  });
});
