import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

describe("intercom", () => {
  bodyHmacCases(plugin, fixture, { header: "X-Hub-Signature", algorithm: "sha1", encoding: "hex", prefix: "sha1=" });

  test("fixed vector: sha1= HMAC-SHA1 hex", async () => {
    const req = requestOf({ headers: { "x-hub-signature": "sha1=01dc10d0c83e72ed246219cdd91669667fe2ca59" }, body: "Hello, World!" });
    expect(await accepted(plugin, req, "It's a Secret to Everybody", new Date())).toBe(true);
    const signed = await plugin.sign(requestOf({ body: "Hello, World!" }), pluginContext("It's a Secret to Everybody", new Date()));
    expect(signed.headers).toEqual({ "X-Hub-Signature": "sha1=01dc10d0c83e72ed246219cdd91669667fe2ca59" });
  });

  test("an upper-case hex digest is accepted", async () => {
    const req = requestOf({ headers: { "x-hub-signature": "sha1=01DC10D0C83E72ED246219CDD91669667FE2CA59" }, body: "Hello, World!" });
    expect(await accepted(plugin, req, "It's a Secret to Everybody", new Date())).toBe(true);
  });

  test("the ping sent on set-up is an ordinary signed notification: no handshake", async () => {
    expect("handshake" in plugin).toBe(false);
    const body = JSON.stringify({ type: "notification_event", id: "notif_ping_1", topic: "ping", data: { item: { type: "ping", message: "something" } } });
    const signed = await plugin.sign(requestOf({ body }), pluginContext(fixture.appSecret, new Date()));
    const req = requestOf({ headers: signed.headers, body });
    expect(await accepted(plugin, req, fixture.appSecret, new Date())).toBe(true);
    expect(plugin.event(req, JSON.parse(body))).toBe("ping");
  });

  test("a body that is not JSON has no delivery id", () => {
    expect(plugin.deliveryId(requestOf({ body: "not json" }))).toBeNull();
  });
});
