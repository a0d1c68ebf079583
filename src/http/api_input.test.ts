import { expect, test } from "bun:test";
import { BodyTooLarge } from "../net/limited_body.ts";
import { ValidationError } from "../triggers/validation_error.ts";
import { pageOf, readJson, readOptionalJson } from "./api_input.ts";

const LIMIT = 1024;
const post = (body: string) => new Request("http://api.test/x", { method: "POST", body });

test("bodies: JSON, or a 400 detail saying why; an empty one is allowed only where every field has a default", async () => {
  expect(await readJson(post('{"a":1}'), LIMIT)).toEqual({ a: 1 });
  expect(await readOptionalJson(post("  "), LIMIT)).toBeUndefined();
  const empty = (await readJson(post(""), LIMIT).catch((e) => e)) as ValidationError;
  expect(empty).toBeInstanceOf(ValidationError);
  expect(empty.details).toEqual([{ path: "", message: "the body is empty; send a JSON object" }]);
  const broken = (await readOptionalJson(post("{x"), LIMIT).catch((e) => e)) as ValidationError;
  expect(broken.details[0].message).toStartWith("the body is not valid JSON");
});

test("bodies are read up to the limit: past it, declared or streamed, BodyTooLarge (a 413); within it, whole", async () => {
  const chunked = (text: string) => new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(text)), c.close()) });
  const over = [
    new Request("http://api.test/x", { method: "POST", body: '{"a":"0123456789"}', headers: { "Content-Length": "18" } }),
    new Request("http://api.test/x", { method: "POST", body: chunked('{"a":"0123456789"}') }),
  ];
  for (const request of over) expect(await readJson(request, 8).catch((e) => e)).toBeInstanceOf(BodyTooLarge);
  expect(await readJson(new Request("http://api.test/x", { method: "PATCH", body: chunked('{"a":1}') }), 8)).toEqual({ a: 1 });
});

test("pages: limit 1..500 (default 50), before an id", () => {
  expect(pageOf({})).toEqual({ limit: 50 });
  expect(pageOf({ limit: "500", before: "r1" })).toEqual({ limit: 500, before: "r1" });
  expect(() => pageOf({ limit: "501" })).toThrow(ValidationError);
  expect(() => pageOf({ limit: "ten" })).toThrow(/must be a whole number from 1 to 500/);
});
