import { describe, expect, test } from "bun:test";
import { Webhook } from "svix";
import { pluginContext, type InletPlugin, type PluginFixture } from "../../src/plugins/index.ts";
import { accepted, headerRecord, requestOf, signedFixture, tampered, withHeaders } from "./test_support.ts";

/**
 * The tests every provider that delivers through Svix (Clerk, Resend) must pass: the Standard
 * Webhooks vector, the svix library both ways, svix-* headers only, and the declared fields.
 */
export function svixSentSuite(name: string, plugin: InletPlugin, fixture: PluginFixture & { deliveryId: string }): void {
  describe(`${name} (sent by Svix)`, () => {
    test("the Standard Webhooks vector verifies under svix-* headers", async () => {
      const req = requestOf({
        headers: {
          "svix-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
          "svix-timestamp": "1614265330",
          "svix-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
        },
        body: '{"test": 2432232314}',
      });
      expect(await accepted(plugin, req, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", new Date(1614265330 * 1000))).toBe(true);
    });

    test("a request signed with the svix library verifies", async () => {
      const now = new Date();
      const req = requestOf({
        headers: {
          "svix-id": fixture.deliveryId,
          "svix-timestamp": String(Math.floor(now.getTime() / 1000)),
          "svix-signature": new Webhook(fixture.appSecret).sign(fixture.deliveryId, now, fixture.body),
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

    test(`only svix-* headers count: ${name} does not send webhook-*`, async () => {
      const req = await signedFixture(plugin, fixture, new Date());
      const renamed = withHeaders(req, {
        "svix-id": null,
        "svix-timestamp": null,
        "svix-signature": null,
        "webhook-id": req.headers.get("svix-id"),
        "webhook-timestamp": req.headers.get("svix-timestamp"),
        "webhook-signature": req.headers.get("svix-signature"),
      });
      expect(await accepted(plugin, renamed, fixture.appSecret, new Date())).toBe(false);
    });

    test("event, delivery id, tolerance and credential headers", async () => {
      const req = await signedFixture(plugin, fixture, new Date());
      expect(plugin.deliveryId!(req, pluginContext(fixture.appSecret, new Date()))).toBe(fixture.deliveryId);
      expect(plugin.event!(req, JSON.parse(fixture.body))).toBe(fixture.event);
      expect(plugin.toleranceSeconds).toBe(300);
      expect(plugin.credentialHeaders).toEqual(["svix-signature"]);
    });
  });
}
