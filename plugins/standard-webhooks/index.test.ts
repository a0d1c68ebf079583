import { describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { pluginContext } from "../../src/plugins/index.ts";
import { accepted, headerRecord, requestOf, signedFixture, tampered, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

// The spec's and the library's published vector (docs/plugins.md#test-vectors).
const SPEC = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const at = (seconds: number) => new Date(seconds * 1000);

function specRequest(signature = SPEC.signature) {
  return requestOf({
    headers: { "webhook-id": SPEC.id, "webhook-timestamp": String(SPEC.timestamp), "webhook-signature": signature },
    body: SPEC.body,
  });
}

describe("standard-webhooks: published vectors", () => {
  test("sign() reproduces the spec vector exactly", async () => {
    const signed = await plugin.sign(requestOf({ headers: { "webhook-id": SPEC.id }, body: SPEC.body }), pluginContext(SPEC.secret, at(SPEC.timestamp)));
    expect(signed.headers).toEqual({ "webhook-id": SPEC.id, "webhook-timestamp": "1614265330", "webhook-signature": SPEC.signature });
  });

  test("the spec vector verifies at its own time", async () => {
    expect(await accepted(plugin, specRequest(), SPEC.secret, at(SPEC.timestamp))).toBe(true);
  });

  test("the same secret without whsec_ is still base64-decoded, as the library does", async () => {
    expect(await accepted(plugin, specRequest(), SPEC.secret.slice("whsec_".length), at(SPEC.timestamp))).toBe(true);
  });

  test("raw-key mode vector: a secret that is not base64 is used as its bytes", async () => {
    const signed = await plugin.sign(requestOf({ headers: { "webhook-id": "msg_1" }, body: "{}" }), pluginContext("my-raw-secret", at(1700000000)));
    expect(signed.headers["webhook-signature"]).toBe("v1,TmtGCrTZiXFjZQ2x1e8l0UjRPWcdbNexU552pwR1ex8=");
    expect(new Webhook("my-raw-secret", { format: "raw" }).sign("msg_1", at(1700000000), "{}")).toBe("v1,TmtGCrTZiXFjZQ2x1e8l0UjRPWcdbNexU552pwR1ex8=");
  });
});

describe("standard-webhooks: interoperability with the standardwebhooks library", () => {
  test("a request signed by Webhook.sign verifies", async () => {
    const now = new Date();
    const signature = new Webhook(fixture.appSecret).sign("msg_sdk_1", now, fixture.body);
    const req = requestOf({
      headers: { "webhook-id": "msg_sdk_1", "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": signature },
      body: fixture.body,
    });
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
  });

  test("a request signed by sign() passes Webhook.verify", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(new Webhook(fixture.appSecret).verify(fixture.body, headerRecord(req.headers))).toEqual(JSON.parse(fixture.body));
  });
});

describe("standard-webhooks: verification", () => {
  const now = at(SPEC.timestamp);

  test("any matching v1 entry of a rotation list passes; other versions are ignored", async () => {
    const stale = "v1,bm90IHRoZSByaWdodCBzaWduYXR1cmUgYXQgYWxsISE=";
    expect(await accepted(plugin, specRequest(`${stale} ${SPEC.signature} v1a,${SPEC.signature.slice(3)}`), SPEC.secret, now)).toBe(true);
    expect(await accepted(plugin, specRequest(`v1a,${SPEC.signature.slice(3)} ${stale}`), SPEC.secret, now)).toBe(false);
    expect(await accepted(plugin, specRequest(`v2,${SPEC.signature.slice(3)}`), SPEC.secret, now)).toBe(false);
  });

  test("a changed body byte, id or timestamp fails", async () => {
    expect(await accepted(plugin, tampered(specRequest()), SPEC.secret, now)).toBe(false);
    expect(await accepted(plugin, withHeaders(specRequest(), { "webhook-id": "msg_other" }), SPEC.secret, now)).toBe(false);
    expect(await accepted(plugin, withHeaders(specRequest(), { "webhook-timestamp": "1614265331" }), SPEC.secret, now)).toBe(false);
  });

  test("missing or malformed headers fail without throwing", async () => {
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      expect(await plugin.verify(withHeaders(specRequest(), { [name]: null }), pluginContext(SPEC.secret, now))).toBe(false);
    }
    expect(await plugin.verify(withHeaders(specRequest(), { "webhook-timestamp": "1614265330.5" }), pluginContext(SPEC.secret, now))).toBe(false);
    expect(await plugin.verify(specRequest("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="), pluginContext(SPEC.secret, now))).toBe(false);
  });

  test("a wrong, empty or undecodable secret fails without throwing", async () => {
    for (const secret of ["whsec_ycDu7hXLfWS2z8rQMYpL3XzOaIyS7YOB", "", "whsec_", "whsec_not*base64"]) {
      expect(await plugin.verify(specRequest(), pluginContext(secret, now))).toBe(false);
    }
  });

  test("the timestamp is enforced ±300 s in both directions", async () => {
    expect(plugin.toleranceSeconds).toBe(300);
    expect(plugin.timestamp(specRequest(), pluginContext(SPEC.secret, now))).toBe(SPEC.timestamp);
    expect(await accepted(plugin, specRequest(), SPEC.secret, at(SPEC.timestamp + 300))).toBe(true);
    expect(await accepted(plugin, specRequest(), SPEC.secret, at(SPEC.timestamp - 300))).toBe(true);
    expect(await accepted(plugin, specRequest(), SPEC.secret, at(SPEC.timestamp + 301))).toBe(false);
    expect(await accepted(plugin, specRequest(), SPEC.secret, at(SPEC.timestamp - 301))).toBe(false);
  });
});

describe("standard-webhooks: delivery id and event", () => {
  test("webhook-id is the delivery id; the body's type is the event", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(plugin.deliveryId(req, pluginContext(fixture.appSecret, new Date()))).toBe(fixture.deliveryId);
    expect(plugin.event(req, JSON.parse(fixture.body))).toBe(fixture.event);
    expect(plugin.credentialHeaders).toEqual(["webhook-signature"]);
  });

  test("sign() invents an id when the caller gives none", async () => {
    const signed = await plugin.sign(requestOf({ body: "{}" }), pluginContext(fixture.appSecret, new Date()));
    expect(signed.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  test("sign() refuses an unusable secret with a TypeError", () => {
    expect(() => plugin.sign(requestOf({ body: "{}" }), pluginContext("whsec_*", new Date()))).toThrow(TypeError);
  });
});
