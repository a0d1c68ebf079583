import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

describe("typeform", () => {
  bodyHmacCases(plugin, fixture, { header: "Typeform-Signature", algorithm: "sha256", encoding: "base64", prefix: "sha256=" });

  test("fixed vector: sha256= HMAC-SHA256 base64", async () => {
    const signed = await plugin.sign(requestOf({ body: "Hello, World!" }), pluginContext("It's a Secret to Everybody", new Date()));
    expect(signed.headers).toEqual({ "Typeform-Signature": "sha256=dXEH6g6yUJ/CESIczphLijdXC211hsIsRvQ3nIsEPhc=" });
    const req = requestOf({ headers: signed.headers, body: "Hello, World!" });
    expect(await accepted(plugin, req, "It's a Secret to Everybody", new Date())).toBe(true);
  });

  test("a hex digest where base64 is expected fails", async () => {
    const req = requestOf({
      headers: { "typeform-signature": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17" },
      body: "Hello, World!",
    });
    expect(await accepted(plugin, req, "It's a Secret to Everybody", new Date())).toBe(false);
  });

  test("inlet generates the secret (it is typed into Typeform)", () => {
    expect(plugin.secret.generated).toBe(true);
  });
});
