import { describe, expect, test } from "bun:test";
import { JsonPathSyntaxError, parseFilter, parseQuery } from "./index.ts";

function errorOf(parse: () => unknown): JsonPathSyntaxError {
  try {
    parse();
  } catch (e) {
    if (e instanceof JsonPathSyntaxError) return e;
    throw e;
  }
  throw new Error("expected a JsonPathSyntaxError");
}

describe("configuration-time errors that help", () => {
  test("'=' for equality: use ==", () => {
    const e = errorOf(() => parseFilter('$.type = "x"'));
    expect(e.message).toContain("use == for equality");
    expect(e.message).toContain("at position 7");
    expect(e.position).toBe(7);
    expect(errorOf(() => parseQuery("$[?@.a = 1]")).message).toContain("use == for equality");
  });

  test("bare words: string literals need quotes", () => {
    const e = errorOf(() => parseFilter("$.type == paid"));
    expect(e.message).toContain("string literals need quotes");
    expect(e.message).toContain('"paid"');
    expect(e.position).toBe(10);
    expect(errorOf(() => parseQuery("$[abc]")).message).toContain("string literals need quotes");
  });

  test("a non-singular query in a comparison suggests a filter selector", () => {
    const e = errorOf(() => parseFilter("$.items[*].price > 10"));
    expect(e.message).toContain("$.items[?@.price > 10]");
    expect(e.message).toContain("non-singular");
    expect(e.position).toBe(0);
    expect(errorOf(() => parseFilter("$.type == 'x' && 10 < $.items.*.price")).message).toContain("$.items[?10 < @.price]");
    expect(errorOf(() => parseFilter("$..price > 10")).message).toContain("filter selector");
  });

  test("other common slips get a pointer", () => {
    expect(errorOf(() => parseFilter("$.a == True")).message).toContain("literals are lowercase: true");
    expect(errorOf(() => parseFilter("$.a and $.b")).message).toContain("use && for logical AND");
    expect(errorOf(() => parseFilter("$.a | $.b")).message).toContain("use || for logical OR");
    expect(errorOf(() => parseFilter("length($.a)")).message).toContain("compare it, e.g. length($.a) > 0");
    expect(errorOf(() => parseFilter("match($.a, 'x') == true")).message).toContain("use it without comparing");
    expect(errorOf(() => parseFilter("$.a == 1 == 2")).message).toContain("comparisons cannot be chained");
    expect(errorOf(() => parseFilter("!$.a == 1")).message).toContain("!($.a == …)");
    expect(errorOf(() => parseFilter("lenght($.a) > 1")).message).toContain("unknown function lenght()");
    expect(errorOf(() => parseQuery("$[@.a]")).message).toContain("a filter selector starts with '?'");
    // A path without its root is not an unquoted string.
    expect(errorOf(() => parseQuery("data.id")).message).toBe(
      "expected '$' at the start of the query, found bare word 'data' at position 0: a query starts with $, e.g. $.data.id",
    );
  });

  const samples = [
    ...[
      '$.type = "x"',
      "$.type == paid",
      "$.items[*].price > 10",
      "",
      "(($.a)",
      '$.a == "x',
      "$.a == 01",
      "length ($.a) > 1",
      "count(1) > 0",
      "$.a ==",
      "$.a &&",
      "$[",
      "@.a[",
      "$.a == 'x\\q'",
      "$.a == '\\uD800'",
    ].map((s) => () => parseFilter(s)),
    ...["", " $", "$ ", "$.", "$[0", "$[-0]", "$[1.5]", "$[9007199254740992]", "$.a..", "$['a'", "@.a", "$[?@.a=]", "$.a#"].map((s) => () => parseQuery(s)),
  ];

  test("every error says what was expected and where", () => {
    for (const parse of samples) {
      const e = errorOf(parse);
      expect(e.name).toBe("JsonPathSyntaxError");
      expect(e).toBeInstanceOf(Error);
      expect(e.message).toMatch(/^expected .+ at position \d+/);
      expect(e.message).toContain(`at position ${e.position}`);
    }
  });
});
