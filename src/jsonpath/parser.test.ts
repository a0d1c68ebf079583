import { describe, expect, test } from "bun:test";
import { evaluateFilter, evaluateQuery, isSingular, parseFilter, parseQuery } from "./index.ts";

const invoice = {
  type: "invoice.paid",
  data: { object: { amount: 150, currency: "usd", lines: [{ price: 100 }, { price: 50 }], tags: [] } },
  empty: null,
};

function holds(source: string, document: unknown = invoice): boolean {
  return evaluateFilter(parseFilter(source), document);
}

describe("parseFilter: a standalone RFC 9535 logical-expr", () => {
  test("parses comparisons joined by && into one and-node", () => {
    const filter = parseFilter('$.type == "invoice.paid" && $.data.object.amount > 100');
    expect(filter.kind).toBe("filter");
    expect(filter.expr.kind).toBe("and");
    if (filter.expr.kind !== "and") return;
    expect(filter.expr.operands.map((o) => o.kind)).toEqual(["compare", "compare"]);
    expect(holds('$.type == "invoice.paid" && $.data.object.amount > 100')).toBe(true);
    expect(holds('$.type == "invoice.paid" && $.data.object.amount > 200')).toBe(false);
  });

  test("binds @ to the document root, like $", () => {
    expect(holds("@.data.object.amount == 150")).toBe(true);
    expect(holds("@ == $")).toBe(true);
  });

  test("&& binds tighter than ||, parentheses regroup", () => {
    const filter = parseFilter("$.a || $.b && $.c");
    expect(filter.expr.kind).toBe("or");
    expect(holds("$.type || $.missing && $.missing")).toBe(true);
    expect(holds("($.type || $.missing) && $.missing")).toBe(false);
  });

  test("accepts surrounding and inner whitespace, single and double quotes", () => {
    expect(holds("  \n$.type\t==\r'invoice.paid'\n ")).toBe(true);
  });

  test("existence tests: present null exists, absent does not, ! negates", () => {
    expect(holds("$.empty")).toBe(true);
    expect(holds("$.nope")).toBe(false);
    expect(holds("!$.nope")).toBe(true);
    expect(holds("$.data.object.lines[?@.price > 90]")).toBe(true);
    expect(holds("$.data.object.lines[?@.price > 100]")).toBe(false);
    expect(holds("$.data.object.tags[*]")).toBe(false);
  });

  test("functions length, count, match, search, value", () => {
    expect(holds("length($.type) == 12")).toBe(true);
    expect(holds("length($.data.object.lines) == 2 && count($.data.object.lines[*]) == 2")).toBe(true);
    expect(holds("match($.type, 'invoice\\\\..*')")).toBe(true);
    expect(holds("match($.type, 'invoice')")).toBe(false);
    expect(holds("search($.type, 'paid')")).toBe(true);
    expect(holds("value($..currency) == 'usd'")).toBe(true);
    expect(holds("value($..price) == 100")).toBe(false);
  });

  test("comparison semantics of RFC 9535 §2.3.5.2.2", () => {
    expect(holds("$.a == 1.0", { a: 1 })).toBe(true);
    expect(holds("$.a == -0", { a: 0 })).toBe(true);
    expect(holds("$.x == $.y", {})).toBe(true); // Nothing == Nothing
    expect(holds("$.x != 1", {})).toBe(true);
    expect(holds("$.x <= $.y", {})).toBe(true);
    expect(holds("$.x < $.y", {})).toBe(false);
    expect(holds("$.a == $.b", { a: [1, { c: 2 }], b: [1, { c: 2 }] })).toBe(true);
    expect(holds("$.a == $.b", { a: { x: 1 }, b: { x: 1, y: 2 } })).toBe(false);
    expect(holds("$.a < true", { a: false })).toBe(false);
    expect(holds("$.a <= true", { a: true })).toBe(true);
    expect(holds("$.a < 'b'", { a: "a" })).toBe(true);
    expect(holds("$.a == '1'", { a: 1 })).toBe(false);
    // Code point order: U+1F600 sorts after U+FFFF although its UTF-16 lead unit is smaller.
    expect(holds("$.a > $.b", { a: "\u{1F600}", b: "\uFFFF" })).toBe(true);
  });

  test("match() is anchored, search() is not; . excludes only \\n and \\r", () => {
    expect(holds("match($.s, 'a.c')", { s: "a\u2028c" })).toBe(true);
    expect(holds("match($.s, 'a.c')", { s: "a\nc" })).toBe(false);
    expect(holds("match($.s, 'a.c')", { s: "a\rc" })).toBe(false);
    expect(holds("match($.s, 'b')", { s: "abc" })).toBe(false);
    expect(holds("search($.s, 'b')", { s: "abc" })).toBe(true);
  });

  test("a pattern that is not I-Regexp makes match()/search() false, not an error", () => {
    for (const pattern of ["[", "\\\\d", "(?:a)", "a{2,1}", "[^]", "\\\\w+", "a**"]) {
      expect(holds(`search($.s, '${pattern}')`, { s: "a1" })).toBe(false);
      expect(holds(`!match($.s, '${pattern}')`, { s: "a1" })).toBe(true);
    }
    expect(holds("match($.s, $.p)", { s: "a", p: 1 })).toBe(false);
    expect(holds("match(1, 'a')", {})).toBe(false);
  });

  test("a standalone filter can itself contain filter selectors with $ inside", () => {
    expect(holds("$.items[?@.price > $.min]", { items: [{ price: 5 }], min: 4 })).toBe(true);
    expect(holds("$.items[?@.price > $.min]", { items: [{ price: 5 }], min: 5 })).toBe(false);
  });
});

describe("parseQuery and evaluateQuery", () => {
  test("normalized paths escape names per RFC 9535 §2.7", () => {
    const nodes = evaluateQuery(parseQuery("$.*"), { "a'b\\\n\u0001": 1 });
    expect(nodes).toEqual([{ value: 1, path: "$['a\\'b\\\\\\n\\u0001']" }]);
    expect(evaluateQuery(parseQuery("$.a[-1]"), { a: [1, 2] })).toEqual([{ value: 2, path: "$['a'][1]" }]);
  });

  test("isSingular: only one-name and one-index child segments", () => {
    expect(isSingular(parseQuery("$"))).toBe(true);
    expect(isSingular(parseQuery("$.a['b'][0][-1]"))).toBe(true);
    for (const q of ["$.*", "$[0,1]", "$..a", "$[0:1]", "$[?@]", "$['a','b']"]) {
      expect(isSingular(parseQuery(q))).toBe(false);
    }
  });

  test("an own property named like an Object.prototype member is the only match", () => {
    expect(evaluateQuery(parseQuery("$.constructor"), {})).toEqual([]);
    expect(evaluateQuery(parseQuery("$.__proto__"), JSON.parse('{"__proto__": 1}'))).toEqual([{ value: 1, path: "$['__proto__']" }]);
  });
});
