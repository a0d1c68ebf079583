import { describe, expect, test } from "bun:test";
import { evaluatesInLinearTime } from "./linear.ts";
import { parseFilter, parseQuery } from "./parser.ts";

describe("evaluatesInLinearTime", () => {
  test.each([
    '$.type == "invoice.paid" && $.data.object.amount > 100',
    "$.a || !$.b",
    "length($.name) > 3 && count($.items[*]) > 0",
    "$.items[?@.amount > 100 && @.currency == 'usd']",
    "$.orders[*].lines[?@.sku[?@ == 'x']]",
    "$..id",
    "value($.a[0]) == 1",
  ])("linear: %s", (source) => {
    expect(evaluatesInLinearTime(parseFilter(source))).toBe(true);
  });

  test.each([
    ['match($.email, ".*@example\\\\.com")', "a regex (match)"],
    ["search($.name, 'a+')", "a regex (search)"],
    ["$.items[?search(@.name, 'x')]", "a regex inside a filter"],
    ["$.items[?@.sku == $.wanted]", "a root query inside a filter"],
    ["$..a[?@..b]", "a descendant segment inside a filter"],
    ["$.a[?@.b[?$.c]]", "a root query in a nested filter"],
    ["$..*..*..*..*", "descendant segments one after another"],
    ["$..a..b", "two descendant segments"],
    ["$..[?@ == @]", "a filter over every node a descendant segment found"],
    ["$..items[*][?@.x > 1]", "a filter after a descendant segment"],
  ])("not linear: %s (%s)", (source) => {
    expect(evaluatesInLinearTime(parseFilter(source))).toBe(false);
  });

  test("queries too", () => {
    expect(evaluatesInLinearTime(parseQuery("$.data.id"))).toBe(true);
    expect(evaluatesInLinearTime(parseQuery("$.items[*].id"))).toBe(true);
    expect(evaluatesInLinearTime(parseQuery("$.items[?match(@.id, 'a.*')].id"))).toBe(false);
    expect(evaluatesInLinearTime(parseQuery("$[?@..x]"))).toBe(false);
  });
});
