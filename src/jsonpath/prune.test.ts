import { describe, expect, test } from "bun:test";
import { evaluateFilter, evaluateQuery, parseFilter, parseQuery, prune } from "./index.ts";

// Deterministic PRNG so a failure reproduces.
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

const KEYS = ["a", "b", "c", "x", "0", "__proto__"];

function randomDocument(rng: Rng, depth = 0): unknown {
  const roll = rng();
  if (depth < 4 && roll < 0.35) {
    const object: Record<string, unknown> = {};
    for (const key of KEYS) {
      if (rng() < 0.5) Object.defineProperty(object, key, { value: randomDocument(rng, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return object;
  }
  if (depth < 4 && roll < 0.6) return Array.from({ length: Math.floor(rng() * 6) }, () => randomDocument(rng, depth + 1));
  return pick(rng, [0, 1, 2, 3, -1, 1.5, "a", "b", "ab", "A", true, false, null]);
}

function singularPath(rng: Rng, root: string): string {
  let path = root;
  const n = Math.floor(rng() * 4);
  for (let i = 0; i < n; i++) path += pick(rng, [".a", ".b", ".c", "['x']", "['0']", "[0]", "[1]", "[-1]", "[-2]", "[4]", "['__proto__']"]);
  return path;
}

function anyQuery(rng: Rng, root: string, depth: number): string {
  if (rng() < 0.5) return singularPath(rng, root);
  const nonSingular = ["[*]", ".*", "..a", "..*", "[0:2]", "[::-1]", "['a','b']", "[0,-1]"];
  if (depth < 2) nonSingular.push(`[?${logical(rng, "@", depth + 1)}]`, `[?@.a == ${singularPath(rng, "$")}]`);
  return singularPath(rng, root) + pick(rng, nonSingular) + singularPath(rng, "");
}

function comparable(rng: Rng, root: string, depth: number): string {
  switch (Math.floor(rng() * 5)) {
    case 0:
      return pick(rng, ["1", "0", "-1", "1.5", "'a'", "'b'", "true", "false", "null"]);
    case 1:
      return `length(${singularPath(rng, pick(rng, [root, "$"]))})`;
    case 2:
      return `count(${anyQuery(rng, pick(rng, [root, "$"]), depth)})`;
    case 3:
      return `value(${anyQuery(rng, pick(rng, [root, "$"]), depth)})`;
    default:
      return singularPath(rng, pick(rng, [root, "$"]));
  }
}

function logical(rng: Rng, root: string, depth: number): string {
  const roll = rng();
  if (depth < 3 && roll < 0.25) {
    return `${logical(rng, root, depth + 1)} ${pick(rng, ["&&", "||"])} ${logical(rng, root, depth + 1)}`;
  }
  if (depth < 3 && roll < 0.35) return `!(${logical(rng, root, depth + 1)})`;
  if (roll < 0.55) return anyQuery(rng, pick(rng, [root, "$"]), depth);
  if (roll < 0.65) {
    return `${pick(rng, ["match", "search"])}(${singularPath(rng, root)}, ${pick(rng, ["'a.*'", "'[ab]'", "'b'", singularPath(rng, "$")])})`;
  }
  return `${comparable(rng, root, depth)} ${pick(rng, ["==", "!=", "<", "<=", ">", ">="])} ${comparable(rng, root, depth)}`;
}

describe("prune keeps what an expression observes", () => {
  test("keeps exactly the singular values, with their skeleton", () => {
    const document = { type: "invoice.paid", id: "evt_1", data: { object: { amount: 150, currency: "usd" }, big: "x".repeat(1000) } };
    const filter = parseFilter('$.type == "invoice.paid" && $.data.object.amount > 100');
    expect(prune(filter, document)).toEqual({ type: "invoice.paid", data: { object: { amount: 150 } } });
  });

  test("keeps the whole subtree at the longest singular prefix of a non-singular query", () => {
    const document = { items: [{ price: 5, name: "a" }, { price: 50 }], other: { big: [1, 2, 3] } };
    expect(prune(parseFilter("$.items[?@.price > 10]"), document)).toEqual({ items: document.items });
    expect(prune(parseQuery("$..price"), document)).toBe(document);
  });

  test("keeps array indices stable; a negative index keeps the array's length", () => {
    const document = { a: [10, 11, 12, 13, 14], b: [1, 2, 3] };
    expect(prune(parseFilter("$.a[1] == 11 && $.b[-1] == 3"), document)).toEqual({ a: [null, 11], b: [null, null, 3] });
  });

  test("a path that does not resolve keeps nothing", () => {
    expect(prune(parseFilter("$.a.b.c == 1"), { a: { x: 1 }, z: 2 })).toEqual({});
    expect(prune(parseFilter("$.a[7] == 1"), { a: [1] })).toEqual({});
  });

  test("keeps an own __proto__ member as data", () => {
    const document = JSON.parse('{"__proto__": {"a": 1}, "b": 2}');
    const pruned = prune(parseFilter("$['__proto__'].a == 1"), document) as object;
    expect(Object.getPrototypeOf(pruned)).toBe(Object.prototype);
    expect(evaluateFilter(parseFilter("$['__proto__'].a == 1"), pruned)).toBe(true);
  });

  test("property: every CTS query gives the same nodes (values and paths) on its pruned document", async () => {
    const file = new URL("../../../shared/conformance/jsonpath-cts/cts.json", import.meta.url);
    const suite = JSON.parse(await Bun.file(file).text()) as { tests: { selector: string; document?: unknown; invalid_selector?: boolean }[] };
    let checked = 0;
    for (const c of suite.tests) {
      if (c.invalid_selector) continue;
      const query = parseQuery(c.selector);
      expect({ selector: c.selector, nodes: evaluateQuery(query, prune(query, c.document)) }).toEqual({
        selector: c.selector,
        nodes: evaluateQuery(query, c.document),
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(400);
  });

  test("property: random filters evaluate the same on the pruned document", () => {
    const rng = random(9535);
    let observedTrue = 0;
    for (let i = 0; i < 3000; i++) {
      const source = logical(rng, pick(rng, ["$", "@"]), 0);
      const filter = parseFilter(source);
      for (let d = 0; d < 3; d++) {
        const document = randomDocument(rng);
        const expected = evaluateFilter(filter, document);
        if (expected) observedTrue++;
        const actual = evaluateFilter(filter, prune(filter, document));
        if (actual !== expected)
          expect({ source, document: JSON.stringify(document), actual }).toEqual({ source, document: JSON.stringify(document), actual: expected });
      }
    }
    expect(observedTrue).toBeGreaterThan(1000); // the generator exercises both outcomes
  });

  test("property: random queries select the same nodes on the pruned document", () => {
    const rng = random(42);
    let nonEmpty = 0;
    for (let i = 0; i < 3000; i++) {
      const source = anyQuery(rng, "$", 0);
      const query = parseQuery(source);
      const document = randomDocument(rng);
      const expected = evaluateQuery(query, document);
      if (expected.length > 0) nonEmpty++;
      expect({ source, nodes: evaluateQuery(query, prune(query, document)) }).toEqual({ source, nodes: expected });
    }
    expect(nonEmpty).toBeGreaterThan(500);
  });
});
