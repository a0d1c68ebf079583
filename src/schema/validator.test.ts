import { expect, test } from "bun:test";
import { checkSchemaDocument, CompiledSchema, validatesWithoutSandbox } from "./validator.ts";

const order = {
  type: "object",
  required: ["id", "amount"],
  properties: {
    id: { type: "string", pattern: "^ord_[a-z0-9]+$" },
    amount: { type: "number", minimum: 0 },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
  },
  patternProperties: { "^x-": { type: "string" } },
};

test("a conforming body has no problems; patterns are answered by the sandbox", async () => {
  const schema = new CompiledSchema(order);
  expect(await schema.validate({ id: "ord_1", amount: 3, tags: ["a", "b"], "x-team": "ops" })).toEqual([]);
});

test("every problem by path, missing properties named, at most 20", async () => {
  const schema = new CompiledSchema(order);
  expect(await schema.validate({ id: "ORD-1", "x-team": 1, tags: ["a", "a"] })).toEqual([
    { path: "/amount", message: "is required" },
    { path: "/id", message: 'must match pattern "^ord_[a-z0-9]+$"' },
    { path: "/tags", message: "must NOT have duplicate items (items ## 1 and 0 are identical)" },
    { path: "/x-team", message: "must be string" },
  ]);
  const many = new CompiledSchema({ type: "array", items: { type: "string" } });
  expect(await many.validate(Array.from({ length: 50 }, (_, i) => i))).toHaveLength(20);
});

test("a pattern that branches (anyOf) gets its real answer, not the first pass's guess", async () => {
  const schema = new CompiledSchema({
    anyOf: [
      { type: "string", pattern: "^a" },
      { type: "string", pattern: "^b" },
    ],
  });
  expect(await schema.validate("bee")).toEqual([]);
  expect((await schema.validate("cee")).length).toBeGreaterThan(0);
  const negated = new CompiledSchema({ not: { type: "string", pattern: "^secret" } });
  expect(await negated.validate("public")).toEqual([]);
  expect(await negated.validate("secret-1")).toEqual([{ path: "", message: "must NOT be valid" }]);
});

test("a pattern in I-Regexp's syntax runs on the linear engine: even the catastrophic shape answers, without the sandbox", async () => {
  const document = { type: "string", pattern: "^(a+)+$" };
  expect(validatesWithoutSandbox(document)).toBe(true);
  const schema = new CompiledSchema(document);
  expect(await schema.validate("a".repeat(50_000) + "!")).toEqual([{ path: "", message: 'must match pattern "^(a+)+$"' }]);
  expect(await schema.validate("aaa")).toEqual([]);
  expect(validatesWithoutSandbox({ properties: { a: { pattern: "^x" } }, patternProperties: { "^(?=y)": {} } })).toBe(false);
  expect(validatesWithoutSandbox({ properties: { a: { pattern: "\\d+" } } })).toBe(false);
});

test("a catastrophic pattern outside I-Regexp ends at the sandbox's deadline instead of stalling the host", async () => {
  // The lookahead keeps it out of the linear engine: a user regex for the sandbox.
  const schema = new CompiledSchema({ type: "string", pattern: "^(a+)+(?!b)$" });
  const started = performance.now();
  const error = await schema.validate("a".repeat(40) + "!").catch((e) => e);
  expect(String(error?.code)).toStartWith("sandbox");
  expect(performance.now() - started).toBeLessThan(5000);
});

test("documents are checked at save with paths and messages that help", () => {
  expect(checkSchemaDocument(order)).toEqual([]);
  expect(checkSchemaDocument([])[0].message).toContain("must be a JSON Schema object");
  expect(checkSchemaDocument({ type: "strin" })).toEqual([
    { path: "/schema/document/type", message: expect.stringContaining('must be one of "array", "boolean"') },
  ]);
  expect(checkSchemaDocument({ properties: { id: { pattern: "(unclosed" } } })).toEqual([
    { path: "/schema/document/properties/id/pattern", message: expect.stringContaining("is not a valid regular expression") },
  ]);
  expect(checkSchemaDocument({ $schema: "http://json-schema.org/draft-07/schema#" })[0].path).toBe("/schema/document/$schema");
  expect(checkSchemaDocument({ type: "array", uniqueItems: true })[0]).toMatchObject({
    path: "/schema/document/uniqueItems",
    message: expect.stringContaining("arrays of scalars"),
  });
  expect(checkSchemaDocument({ $ref: "https://example.com/remote.json" })[0].message).toContain("does not compile");
  // An `enum` holds data: a "pattern" inside it is not a regex.
  expect(checkSchemaDocument({ enum: [{ pattern: "(" }] })).toEqual([]);
});
