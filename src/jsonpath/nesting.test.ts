import { describe, expect, test } from "bun:test";
import { JsonPathSyntaxError, MAX_NESTING, parseFilter, parseQuery } from "./index.ts";

function parens(depth: number): string {
  return "(".repeat(depth) + "$.a" + ")".repeat(depth);
}

function filters(depth: number): string {
  return "$" + "[?@".repeat(depth) + "]".repeat(depth);
}

function calls(depth: number): string {
  return "length(".repeat(depth) + "$.a" + ")".repeat(depth) + " == 1";
}

describe("nesting limit", () => {
  test(`accepts ${MAX_NESTING} levels of parentheses, filters and calls`, () => {
    expect(MAX_NESTING).toBe(64);
    expect(() => parseFilter(parens(MAX_NESTING))).not.toThrow();
    expect(() => parseQuery(filters(MAX_NESTING))).not.toThrow();
    expect(() => parseFilter(calls(MAX_NESTING))).not.toThrow();
  });

  test("rejects one level more with a clear message and position", () => {
    for (const parse of [() => parseFilter(parens(MAX_NESTING + 1)), () => parseQuery(filters(MAX_NESTING + 1)), () => parseFilter(calls(MAX_NESTING + 1))]) {
      let error: unknown;
      try {
        parse();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(JsonPathSyntaxError);
      expect((error as Error).message).toMatch(/expected at most 64 nested levels .* at position \d+/);
    }
  });

  test("mixed nesting counts every level", () => {
    // 24 parentheses + 20 × (filter + call) = 64 levels.
    const inner = "$.y" + "[?count(@.y".repeat(20) + ") > 0]".repeat(20);
    expect(() => parseFilter("!(".repeat(24) + inner + ")".repeat(24))).not.toThrow();
    expect(() => parseFilter("!(".repeat(25) + inner + ")".repeat(25))).toThrow(/at most 64 nested levels/);
  });

  test("absurd depth fails as a syntax error, not a stack overflow", () => {
    expect(() => parseFilter("(".repeat(100_000) + "$.a" + ")".repeat(100_000))).toThrow(JsonPathSyntaxError);
    expect(() => parseQuery("$" + "[?@".repeat(100_000))).toThrow(JsonPathSyntaxError);
  });
});
