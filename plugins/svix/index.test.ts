import { describe, expect, test } from "bun:test";
import { Webhook } from "svix";
import { pluginContext } from "../../src/plugins/index.ts";
import { accepted, headerRecord, requestOf, signedFixture, tampered, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

// The Standard Webhooks vector is also the one Svix's libraries test against.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: "1614265330",
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const vectorTime = new Date(1614265330 * 1000);

describe("svix", () => {
  test("the published vector verifies under svix-* headers", async () => {
    const req = requestOf({
      headers: { "svix-id": VECTOR.id, "svix-timestamp": VECTOR.timestamp, "svix-signature": VECTOR.signature },
      body: VECTOR.body,
    });
    expect(await accepted(plugin, req, VECTOR.secret, vectorTime)).toBe(true);
  });

  test("white-labelled webhook-* headers are accepted too", async () => {
    const req = requestOf({
      headers: { "webhook-id": VECTOR.id, "webhook-timestamp": VECTOR.timestamp, "webhook-signature": VECTOR.signature },
      body: VECTOR.body,
    });
    expect(await accepted(plugin, req, VECTOR.secret, vectorTime)).toBe(true);
    expect(plugin.deliveryId(req, pluginContext(VECTOR.secret, vectorTime))).toBe(VECTOR.id);
  });

  test("sign() reproduces the vector under svix-* headers", async () => {
    const signed = await plugin.sign(requestOf({ headers: { "svix-id": VECTOR.id }, body: VECTOR.body }), pluginContext(VECTOR.secret, vectorTime));
    expect(signed.headers).toEqual({ "svix-id": VECTOR.id, "svix-timestamp": VECTOR.timestamp, "svix-signature": VECTOR.signature });
  });

  test("a request signed with the svix library verifies", async () => {
    const now = new Date();
    const req = requestOf({
      headers: {
        "svix-id": "msg_svix_sdk",
        "svix-timestamp": String(Math.floor(now.getTime() / 1000)),
        "svix-signature": new Webhook(fixture.appSecret).sign("msg_svix_sdk", now, fixture.body),
      },
      body: fixture.body,
    });
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
    expect(await accepted(plugin, tampered(req), fixture.appSecret, now)).toBe(false);
  });

  test("sign() output passes the svix library's verify", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(new Webhook(fixture.appSecret).verify(fixture.body, headerRecord(req.headers))).toEqual(JSON.parse(fixture.body));
  });

  test("svix-* wins over webhook-* when both are present, header by header", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    const mixed = withHeaders(req, { "webhook-signature": "v1,AAAA", "webhook-id": "msg_other" });
    expect(await accepted(plugin, mixed, fixture.appSecret, new Date())).toBe(true);
    expect(plugin.deliveryId(mixed, pluginContext(fixture.appSecret, new Date()))).toBe(fixture.deliveryId);
  });

  test("event, delivery id and credential headers", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(plugin.deliveryId(req, pluginContext(fixture.appSecret, new Date()))).toBe(fixture.deliveryId);
    expect(plugin.event(req, JSON.parse(fixture.body))).toBe(fixture.event);
    expect(plugin.credentialHeaders).toEqual(["svix-signature", "webhook-signature"]);
    expect(plugin.toleranceSeconds).toBe(300);
  });
});
