import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { pluginContext } from "../../src/plugins/index.ts";
import { accepted, headerRecord, requestOf, signedFixture, tampered } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

const at = (seconds: number) => new Date(seconds * 1000);

describe("openai", () => {
  test("a whsec_ secret is base64-decoded: the Standard Webhooks vector verifies", async () => {
    const req = requestOf({
      headers: {
        "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
        "webhook-timestamp": "1614265330",
        "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
      },
      body: '{"test": 2432232314}',
    });
    expect(await accepted(plugin, req, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", at(1614265330))).toBe(true);
  });

  test("a secret without whsec_ is used as UTF-8 (raw-key vector)", async () => {
    const signed = await plugin.sign(requestOf({ headers: { "webhook-id": "msg_1" }, body: "{}" }), pluginContext("my-raw-secret", at(1700000000)));
    expect(signed.headers["webhook-signature"]).toBe("v1,TmtGCrTZiXFjZQ2x1e8l0UjRPWcdbNexU552pwR1ex8=");
  });

  test("unlike the standardwebhooks library, a base64-looking secret without whsec_ is not decoded", async () => {
    const secret = "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const now = new Date();
    const req = await signedFixture(plugin, fixture, now, secret);
    const signature = req.headers.get("webhook-signature");
    expect(signature).toBe(new Webhook(secret, { format: "raw" }).sign(fixture.deliveryId, now, fixture.body));
    expect(signature).not.toBe(new Webhook(secret).sign(fixture.deliveryId, now, fixture.body));
    expect(await accepted(plugin, req, secret, now)).toBe(true);
  });

  test("a request signed with standardwebhooks and a whsec_ secret verifies (OpenAI's own advice)", async () => {
    const now = new Date();
    const req = requestOf({
      headers: {
        "webhook-id": fixture.deliveryId,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": new Webhook(fixture.appSecret).sign(fixture.deliveryId, now, fixture.body),
      },
      body: fixture.body,
    });
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
    expect(await accepted(plugin, tampered(req), fixture.appSecret, now)).toBe(false);
  });

  test("sign() output passes the standardwebhooks verifier", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(new Webhook(fixture.appSecret).verify(fixture.body, headerRecord(req.headers))).toEqual(JSON.parse(fixture.body));
  });

  test("event, delivery id, tolerance and credential headers", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(plugin.deliveryId(req, pluginContext(fixture.appSecret, new Date()))).toBe(fixture.deliveryId);
    expect(plugin.event(req, JSON.parse(fixture.body))).toBe(fixture.event);
    expect(plugin.toleranceSeconds).toBe(300);
    expect(plugin.credentialHeaders).toEqual(["webhook-signature"]);
  });
});
