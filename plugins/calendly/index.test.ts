import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, tampered, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

const at = (seconds: number) => new Date(seconds * 1000);
// Self-generated with node:crypto: HMAC-SHA256("calendly_signing_key", '1700000000.{"event":"invitee.created"}').
const VECTOR = {
  secret: "calendly_signing_key",
  body: '{"event":"invitee.created"}',
  header: "t=1700000000,v1=7c7e325be658164dc380d838840ca9f061137cfceeeb8eb8554524cb38913971",
};
const vectorRequest = (header = VECTOR.header) => requestOf({ headers: { "calendly-webhook-signature": header }, body: VECTOR.body });

describe("calendly", () => {
  test("fixed vector: t=<ts>,v1=<hex HMAC-SHA256 of {t}.{body}>", async () => {
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1700000000))).toBe(true);
    const signed = await plugin.sign(requestOf({ body: VECTOR.body }), pluginContext(VECTOR.secret, at(1700000000)));
    expect(signed.headers).toEqual({ "Calendly-Webhook-Signature": VECTOR.header });
  });

  test("extra entries, spaces and several v1 signatures are tolerated", async () => {
    const [t, v1] = VECTOR.header.split(",");
    expect(await accepted(plugin, vectorRequest(`${t}, v1=${"0".repeat(64)}, ${v1}, v0=abc`), VECTOR.secret, at(1700000000))).toBe(true);
  });

  test("a changed body, t or secret fails; malformed headers fail without throwing", async () => {
    const now = at(1700000000);
    const ctx = pluginContext(VECTOR.secret, now);
    expect(await accepted(plugin, tampered(vectorRequest()), VECTOR.secret, now)).toBe(false);
    expect(await plugin.verify(vectorRequest(VECTOR.header.replace("t=1700000000", "t=1700000001")), ctx)).toBe(false);
    expect(await plugin.verify(vectorRequest(), pluginContext("other", now))).toBe(false);
    expect(await plugin.verify(vectorRequest(), pluginContext("", now))).toBe(false);
    for (const header of ["", "v1=7c7e", "t=1700000000", "t=soon,v1=7c7e", "garbage"]) {
      expect(await plugin.verify(vectorRequest(header), ctx)).toBe(false);
    }
    expect(await plugin.verify(withHeaders(vectorRequest(), { "calendly-webhook-signature": null }), ctx)).toBe(false);
  });

  test("t is the timestamp, enforced ±180 s", async () => {
    expect(plugin.timestamp(vectorRequest())).toBe(1700000000);
    expect(plugin.toleranceSeconds).toBe(180);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1700000180))).toBe(true);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1700000181))).toBe(false);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1699999819))).toBe(false);
  });

  test("sign() round-trips the sample delivery; event; no delivery id, content dedup instead", async () => {
    const now = new Date();
    const req = await signedFixture(plugin, fixture, now);
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
    expect(plugin.event(req, JSON.parse(fixture.body))).toBe(fixture.event);
    expect("deliveryId" in plugin).toBe(false);
    expect(plugin.contentDedupWindowSeconds).toBeGreaterThanOrEqual(86400);
    expect(plugin.credentialHeaders).toEqual(["calendly-webhook-signature"]);
  });
});
