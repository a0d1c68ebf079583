import { describe, expect, test } from "bun:test";
import { evaluateFilter, evaluateQuery, MAX_NESTING, parseFilter, parseQuery } from "../jsonpath/index.ts";
import { Sandbox, SandboxError, SandboxMemory, SandboxTimeout, sandbox } from "../sandbox/index.ts";
import { checkFilter, checkQuery, compileFilter, compileKeyQuery, ExpressionError, runFilter, runKeyQuery } from "./index.ts";
import { nested, thrown } from "../../test/support/values.ts";
import { ExactNumber, parseJson } from "../json/index.ts";

const DOCUMENTS: unknown[] = [
  {
    type: "invoice.paid",
    data: {
      object: {
        amount: 250,
        currency: "usd",
        lines: [
          { id: "li_1", price: 120 },
          { id: "li_2", price: 80 },
        ],
      },
    },
  },
  { type: "invoice.paid", data: { object: { amount: 50, currency: "eur", lines: [] } } },
  { type: "customer.created", data: { object: { email: "A@Example.com", tags: ["vip", "beta"], meta: null } } },
  {
    type: "order.paid",
    items: [
      { sku: "a-1", qty: 2 },
      { sku: "b-22", qty: 0 },
    ],
    total: 19.99,
    flags: { test: true },
  },
  JSON.parse('{ "__proto__": { "polluted": true }, "odd key": "x y", "": 0, "0": [0, [1, [2]]] }'),
  [1, "two", { three: 3 }, null, [4]],
  "just a string",
  42,
  null,
  {},
];

const FILTERS = [
  '$.type == "invoice.paid" && $.data.object.amount > 100',
  '$.type == "invoice.paid" || $.type == "order.paid"',
  '!($.type == "invoice.paid")',
  "$.data.object.lines[?@.price > 100]",
  "$.data.object.lines[-1].price <= 80",
  "$.items[?@.qty == 0 && search(@.sku, '[0-9]{2}')]",
  "count($.items[*]) == 2",
  "length($.data.object.tags) >= 2 && $.data.object.tags[0] == 'vip'",
  "match($.data.object.email, '[A-Za-z]+@example\\\\.com')",
  "match($.data.object.email, '(?i)a@example.com')",
  "search($.type, 'paid$')",
  "value($..amount) > 10",
  "$.data.object.meta == null",
  "$.data.object.missing == null",
  "$.flags.test == true",
  "$.total < 20 && $.total > 19.98",
  '$["odd key"] == "x y" && $[""] == 0',
  "$['__proto__'].polluted",
  "$['0'][1][1][0] == 2",
  "$[2].three == 3 && $[-1][0] == 4",
  "$[?@ == 'two']",
  "$ == 42",
  "$ == 'just a string'",
  "$ == null",
  "$.data.object == $.data.object",
  "$.data.object.lines == $.data.object.lines",
  "$..[?@.id == 'li_2']",
  "$.data[?@.currency != 'usd']",
];

describe("filters", () => {
  test("answer exactly as the host-side engine on the whole document does, in QuickJS and (where allowed) on the host", () => {
    for (const source of FILTERS) {
      const compiled = compileFilter(source);
      const inSandbox = { ...compiled, onHost: false };
      const host = parseFilter(source);
      for (const document of DOCUMENTS) {
        const expected = evaluateFilter(host, document);
        expect({ source, document, result: runFilter(compiled, document) }).toEqual({ source, document, result: expected });
        expect({ source, document, result: runFilter(inSandbox, document) }).toEqual({ source, document, result: expected });
      }
    }
  });

  test("at least some of those filters hold and some do not", () => {
    const results = FILTERS.flatMap((source) => DOCUMENTS.map((document) => runFilter(compileFilter(source), document)));
    expect(results.filter(Boolean).length).toBeGreaterThan(10);
    expect(results.filter((r) => !r).length).toBeGreaterThan(10);
  });

  test("a filter of linear cost whose patterns the linear engine takes evaluates on the host; any other in QuickJS", () => {
    const plain = compileFilter('$.type == "invoice.paid" && $.data.object.amount > 100');
    const literalRegex = compileFilter("match($.type, 'invoice.*') && search($.note, 'urgent')");
    const documentRegex = compileFilter("match($.type, $.pattern)");
    const beyondRe2 = compileFilter("match($.type, 'a{1001}')");
    const quadratic = compileFilter("$.items[?@.sku == $.wanted]");
    expect([plain.onHost, literalRegex.onHost, documentRegex.onHost, beyondRe2.onHost, quadratic.onHost]).toEqual([true, true, false, false, false]);
    const calls: string[] = [];
    const original = sandbox.call.bind(sandbox);
    sandbox.call = (program, fn, args, deadline) => (calls.push(fn), original(program, fn, args, deadline));
    try {
      expect(runFilter(plain, { type: "invoice.paid", data: { object: { amount: 250 } } })).toBe(true);
      expect(runFilter(literalRegex, { type: "invoice.paid", note: "very urgent" })).toBe(true);
      expect(runFilter(literalRegex, { type: "invoice.paid", note: "later" })).toBe(false);
      expect(calls).toEqual([]);
      expect(runFilter(documentRegex, { type: "invoice.paid", pattern: "invoice.*" })).toBe(true);
      expect(runFilter(quadratic, { items: [{ sku: "a" }], wanted: "a" })).toBe(true);
      expect(calls).toEqual(["filter", "filter"]);
    } finally {
      sandbox.call = original;
    }
  });

  test("a catastrophic literal pattern runs on the host's linear engine: answered, no deadline, no sandbox", () => {
    const evil = compileFilter("match($.name, '(a+)+b')");
    expect(evil.onHost).toBe(true);
    expect(runFilter(evil, { name: "a".repeat(100_000) + "!" })).toBe(false);
    expect(runFilter(evil, { name: "aaab" })).toBe(true);
  });

  test("only the part of the body the expression reads enters the sandbox", () => {
    const filter = compileFilter("match($.type, $.wanted) && $.data.object.amount > 100");
    const body = {
      type: "invoice.paid",
      wanted: "invoice.paid",
      data: { object: { amount: 250, lines: Array.from({ length: 500 }, (_, i) => ({ id: `li_${i}`, description: "x".repeat(100) })) } },
    };
    const inputs: string[] = [];
    const original = filter.sandbox.call.bind(filter.sandbox);
    filter.sandbox.call = (program, fn, args, deadline) => {
      inputs.push(...args.filter((a): a is string => typeof a === "string"));
      return original(program, fn, args, deadline);
    };
    try {
      expect(runFilter(filter, body)).toBe(true);
    } finally {
      filter.sandbox.call = original;
    }
    expect(inputs).toEqual(['{"type":"invoice.paid","wanted":"invoice.paid","data":{"object":{"amount":250}}}']);
  });

  test("a catastrophic pattern read from the body ends at the deadline in the sandbox, and the sandbox stays usable", () => {
    const evil = compileFilter("match($.name, $.pattern)");
    const started = performance.now();
    const error = thrown(() => runFilter(evil, { name: "a".repeat(40) + "!", pattern: "(a+)+" }));
    expect(error).toBeInstanceOf(SandboxTimeout);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(runFilter(evil, { name: "aaa", pattern: "(a+)+" })).toBe(true);
    expect(runFilter(compileFilter("$.n == 1"), { n: 1 })).toBe(true);
  });

  test("a regex that exhausts the sandbox's memory gives SandboxMemory", async () => {
    const small = await Sandbox.create({ memoryBytes: 8 * 1024 * 1024, deadlineMs: 5_000 });
    const hungry = compileFilter("match($.a, $.pattern)", { sandbox: small });
    expect(thrown(() => runFilter(hungry, { a: "a".repeat(400_000), pattern: "(a|b)*" }))).toBeInstanceOf(SandboxMemory);
    expect(runFilter(hungry, { a: "abab", pattern: "(a|b)*" })).toBe(true);
  });

  test("a body nested deeper than 256 where the filter reads is refused; shallow reads are fine", () => {
    const body = { top: 1, deep: nested(300, 1) };
    expect(runFilter(compileFilter("$.top == 1"), body)).toBe(true);
    const error = thrown(() => runFilter(compileFilter("$.deep"), body));
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe("sandbox_too_deep");
  });

  test(`the deepest expression the parser accepts (${MAX_NESTING} levels) evaluates in QuickJS`, () => {
    const source = "(".repeat(MAX_NESTING - 1) + "$.a == 1" + ")".repeat(MAX_NESTING - 1);
    const filters = "$" + "[?@.a".repeat(MAX_NESTING - 1) + "]".repeat(MAX_NESTING - 1);
    expect(runFilter(compileFilter(source), { a: 1 })).toBe(true);
    expect(runKeyQuery(compileKeyQuery(filters), { a: 1 })).toEqual([]);
  });

  test("invalid expressions are refused with the parser's message", () => {
    const error = thrown(() => compileFilter('$.type = "order.paid"'));
    expect(error).toBeInstanceOf(ExpressionError);
    expect((error as ExpressionError).code).toBe("invalid_expression");
    expect((error as ExpressionError).position).toBe(7);
    expect((error as Error).message).toMatch(/use ==/);
    expect(checkFilter("$.type == paid")).toMatch(/string literals need quotes/);
    expect(checkFilter("$.items[*].price > 1")).toMatch(/singular/);
    expect(checkFilter('$.type == "order.paid"')).toBeNull();
  });
});

describe("expression dedup keys", () => {
  const QUERIES = ["$.data.object.lines[*].id", "$.type", "$..id", "$.items[?@.qty > 0].sku", "$.missing", "$", "$[1:3]", "$['__proto__']"];

  test("select the same values as the host-side engine on the whole document, in QuickJS and on the host, in document order", () => {
    for (const source of QUERIES) {
      const compiled = compileKeyQuery(source);
      const host = parseQuery(source);
      for (const document of DOCUMENTS) {
        const expected = evaluateQuery(host, document).map((node) => node.value);
        expect({ source, document, values: runKeyQuery(compiled, document) }).toEqual({ source, document, values: expected });
        expect({ source, document, values: runKeyQuery({ ...compiled, onHost: false }, document) }).toEqual({ source, document, values: expected });
      }
    }
  });

  test("examples", () => {
    expect(runKeyQuery(compileKeyQuery("$.data.id"), { data: { id: "evt_1" } })).toEqual(["evt_1"]);
    expect(runKeyQuery(compileKeyQuery("$.items[*].id"), { items: [{ id: 1 }, { id: "b" }, {}] })).toEqual([1, "b"]);
    expect(runKeyQuery(compileKeyQuery("$.nothing"), { data: 1 })).toEqual([]);
  });

  test("invalid queries are refused with the parser's message", () => {
    expect(thrown(() => compileKeyQuery("data.id"))).toBeInstanceOf(ExpressionError);
    expect(checkQuery("data.id")).toMatch(/position 0/);
    expect(checkQuery("$.data.id")).toBeNull();
  });

  test("uses the shared sandbox by default", () => {
    expect(compileKeyQuery("$.a").sandbox).toBe(sandbox);
  });
});

describe("numbers a double cannot hold", () => {
  const body = parseJson(
    '{"id":9007199254740993,"huge":1e400,"long":0.1000000000000000055511151231257827,"items":[{"id":9007199254740992},{"id":9007199254740993}]}',
  );

  test("filters compare them exactly, in QuickJS and on the host", () => {
    for (const [source, expected] of [
      ["$.id == 9007199254740993", true],
      ["$.id == 9007199254740992", false],
      ["$.huge > 1e308 && $.long != 0.1", true],
      ["$.items[1].id > $.items[0].id", true],
      ["match($.kind, $.pattern) || $.id == 9007199254740992", false],
    ] as const) {
      const compiled = compileFilter(source);
      expect({ source, result: runFilter(compiled, body) }).toEqual({ source, result: expected });
      expect({ source, result: runFilter({ ...compiled, onHost: false }, body) }).toEqual({ source, result: expected });
    }
  });

  test("only a document that may hold them is read exactly in QuickJS (the host scans: QuickJS would take many times longer)", () => {
    const calls: string[] = [];
    const original = sandbox.call.bind(sandbox);
    sandbox.call = (program, fn, args, deadline) => (calls.push(fn), original(program, fn, args, deadline));
    try {
      const inSandbox = { ...compileFilter("$.id > 1"), onHost: false };
      expect(runFilter(inSandbox, body)).toBe(true);
      expect(runFilter(inSandbox, { id: 2, note: "1234567890" })).toBe(true);
      expect(runKeyQuery({ ...compileKeyQuery("$.id"), onHost: false }, body)).toEqual([new ExactNumber("9007199254740993")]);
      expect(runKeyQuery({ ...compileKeyQuery("$.id"), onHost: false }, { id: 2 })).toEqual([2]);
    } finally {
      sandbox.call = original;
    }
    expect(calls).toEqual(["filterExact", "filter", "queryExact", "query"]);
  });

  test("key queries select them with their digits, in QuickJS and on the host", () => {
    const query = compileKeyQuery("$.items[?@.id == 9007199254740993].id");
    const expected = [new ExactNumber("9007199254740993")];
    expect(runKeyQuery(query, body)).toEqual(expected);
    expect(runKeyQuery({ ...query, onHost: false }, body)).toEqual(expected);
    const all = compileKeyQuery("$..id");
    expect(JSON.stringify(runKeyQuery({ ...all, onHost: false }, body))).toBe("[9007199254740993,9007199254740992,9007199254740993]");
    expect(JSON.stringify(runKeyQuery(compileKeyQuery("$['huge','long']"), body))).toBe("[1e400,0.1000000000000000055511151231257827]");
    expect(JSON.stringify(runKeyQuery({ ...compileKeyQuery("$['huge','long']"), onHost: false }, body))).toBe("[1e400,0.1000000000000000055511151231257827]");
  });
});
