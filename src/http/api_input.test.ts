import { expect, test } from "bun:test";
import { ValidationError } from "../triggers/validation_error.ts";
import { pageOf, readJson, readOptionalJson } from "./api_input.ts";

const post = (body: string) => new Request("http://api.test/x", { method: "POST", body });

test("bodies: JSON, or a 400 detail saying why; an empty one is allowed only where every field has a default", async () => {
  expect(await readJson(post('{"a":1}'))).toEqual({ a: 1 });
  expect(await readOptionalJson(post("  "))).toBeUndefined();
  const empty = (await readJson(post("")).catch((e) => e)) as ValidationError;
  expect(empty).toBeInstanceOf(ValidationError);
  expect(empty.details).toEqual([{ path: "", message: "the body is empty; send a JSON object" }]);
  const broken = (await readOptionalJson(post("{x")).catch((e) => e)) as ValidationError;
  expect(broken.details[0].message).toStartWith("the body is not valid JSON");
});

test("pages: limit 1..500 (default 50), before an id", () => {
  expect(pageOf({})).toEqual({ limit: 50 });
  expect(pageOf({ limit: "500", before: "r1" })).toEqual({ limit: 500, before: "r1" });
  expect(() => pageOf({ limit: "501" })).toThrow(ValidationError);
  expect(() => pageOf({ limit: "ten" })).toThrow(/must be a whole number from 1 to 500/);
});
