import { createHmac } from "node:crypto";
import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf, signedFixture } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

// The fixture's webhookTimestamp (2024-05-10T12:00:00Z).
const SENT_AT = new Date(1715342400000);
const after = (seconds: number) => new Date(SENT_AT.getTime() + seconds * 1000);

describe("linear", () => {
  bodyHmacCases(plugin, fixture, { header: "Linear-Signature", algorithm: "sha256", encoding: "hex", now: SENT_AT });

  test("fixed vector: bare HMAC-SHA256 hex of the body", async () => {
    const signed = await plugin.sign(requestOf({ body: "Hello, World!" }), pluginContext("It's a Secret to Everybody", new Date()));
    expect(signed.headers).toEqual({ "Linear-Signature": "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17" });
  });

  test("the body's webhookTimestamp (ms) is the timestamp, in seconds", async () => {
    const req = await signedFixture(plugin, fixture, SENT_AT);
    expect(plugin.timestamp(req)).toBe(1715342400);
    expect(plugin.timestamp(requestOf({ body: '{"webhookTimestamp":"1715342400000"}' }))).toBeNull();
    expect(plugin.timestamp(requestOf({ body: "not json" }))).toBeNull();
  });

  test("the timestamp is enforced to within 60 s either way, like @linear/sdk", async () => {
    const req = await signedFixture(plugin, fixture, SENT_AT);
    expect(await accepted(plugin, req, fixture.appSecret, after(60))).toBe(true);
    expect(await accepted(plugin, req, fixture.appSecret, after(-60))).toBe(true);
    expect(await accepted(plugin, req, fixture.appSecret, after(61))).toBe(false);
    expect(await accepted(plugin, req, fixture.appSecret, after(-61))).toBe(false);
  });

  test("sign() stamps webhookTimestamp with the signing time, as Linear does, and keeps the rest", async () => {
    const later = after(3600);
    const req = await signedFixture(plugin, fixture, later);
    const body = JSON.parse(new TextDecoder().decode(req.rawBody));
    expect(body).toEqual({ ...JSON.parse(fixture.body), webhookTimestamp: later.getTime() });
    expect(plugin.timestamp(req)).toBe(later.getTime() / 1000);
    expect(await accepted(plugin, req, fixture.appSecret, later)).toBe(true);
    expect(await accepted(plugin, req, fixture.appSecret, SENT_AT)).toBe(false);
  });

  test("a body without webhookTimestamp is refused even when correctly signed", async () => {
    const body = '{"action":"create","type":"Issue","data":{}}';
    const req = requestOf({ headers: { "linear-signature": createHmac("sha256", fixture.appSecret).update(body).digest("hex") }, body });
    expect(await plugin.verify(req, pluginContext(fixture.appSecret, SENT_AT))).toBe(true);
    expect(await accepted(plugin, req, fixture.appSecret, SENT_AT)).toBe(false);
  });

  test("the Linear-Timestamp header, which is not signed, does not matter", async () => {
    const req = await signedFixture(plugin, fixture, SENT_AT);
    req.headers.set("linear-timestamp", String(Date.now()));
    expect(plugin.timestamp(req)).toBe(1715342400);
  });

  test("event is the entity type and the action", () => {
    expect(plugin.event(requestOf(), { type: "Comment", action: "update" })).toBe("Comment.update");
    expect(plugin.event(requestOf(), { type: "Issue" })).toBe("Issue");
  });
});
