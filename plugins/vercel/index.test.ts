import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

describe("vercel", () => {
  bodyHmacCases(plugin, fixture, { header: "x-vercel-signature", algorithm: "sha1", encoding: "hex" });

  test("fixed vector: bare HMAC-SHA1 hex", async () => {
    const signed = await plugin.sign(requestOf({ body: "Hello, World!" }), pluginContext("It's a Secret to Everybody", new Date()));
    expect(signed.headers).toEqual({ "x-vercel-signature": "01dc10d0c83e72ed246219cdd91669667fe2ca59" });
    expect(await accepted(plugin, requestOf({ headers: signed.headers, body: "Hello, World!" }), "It's a Secret to Everybody", new Date())).toBe(true);
  });

  test("an HMAC-SHA256 signature of the same body is not accepted", async () => {
    const req = requestOf({ headers: { "x-vercel-signature": "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17" }, body: "Hello, World!" });
    expect(await accepted(plugin, req, "It's a Secret to Everybody", new Date())).toBe(false);
  });
});
