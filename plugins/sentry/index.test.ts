import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

describe("sentry", () => {
  bodyHmacCases(plugin, fixture, { header: "Sentry-Hook-Signature", algorithm: "sha256", encoding: "hex" });

  test("fixed vector: bare HMAC-SHA256 hex", async () => {
    const signed = await plugin.sign(requestOf({ body: "Hello, World!" }), pluginContext("It's a Secret to Everybody", new Date()));
    expect(signed.headers).toEqual({ "Sentry-Hook-Signature": "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17" });
    expect(await accepted(plugin, requestOf({ headers: signed.headers, body: "Hello, World!" }), "It's a Secret to Everybody", new Date())).toBe(true);
  });

  test("the raw bytes are verified, not a re-serialisation of the parsed JSON", async () => {
    const pretty = JSON.stringify(JSON.parse(fixture.body), null, 2);
    const signed = await plugin.sign(requestOf({ body: pretty }), pluginContext(fixture.appSecret, new Date()));
    expect(await accepted(plugin, requestOf({ headers: signed.headers, body: pretty }), fixture.appSecret, new Date())).toBe(true);
    expect(await accepted(plugin, requestOf({ headers: signed.headers, body: fixture.body }), fixture.appSecret, new Date())).toBe(false);
  });

  test("the unsigned Sentry-Hook-Timestamp is not enforced", () => {
    expect("timestamp" in plugin).toBe(false);
    expect("toleranceSeconds" in plugin).toBe(false);
  });

  test("the event is the resource header with the body's action, or either alone", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(plugin.event(req, { action: "resolved" })).toBe("issue.resolved");
    expect(plugin.event(withHeaders(req, { "sentry-hook-resource": null }), { action: "resolved" })).toBe("resolved");
    expect(plugin.event(withHeaders(req, { "sentry-hook-resource": "installation" }), {})).toBe("installation");
  });
});
