import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, tampered, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";
import { rfc3339Seconds } from "./rfc3339.ts";

// Self-generated with node:crypto: HMAC-SHA256("twitch_secret_1234", id + timestamp + body).
const VECTOR = {
  secret: "twitch_secret_1234",
  id: "e76c6bd4-55c9-4987-8304-da1588d8988b",
  timestamp: "2019-11-16T10:11:12.634234626Z",
  body: '{"event":{}}',
  signature: "sha256=07740e165f2f7147e261a4c57a5dd1f28517c2952d43dfc4cca7c10d6e58750c",
};
const SENT = rfc3339Seconds(VECTOR.timestamp) as number;
const at = (seconds: number) => new Date(seconds * 1000);
const vectorRequest = () =>
  requestOf({
    headers: {
      "twitch-eventsub-message-id": VECTOR.id,
      "twitch-eventsub-message-timestamp": VECTOR.timestamp,
      "twitch-eventsub-message-signature": VECTOR.signature,
      "twitch-eventsub-message-type": "notification",
    },
    body: VECTOR.body,
  });

describe("twitch: signature", () => {
  test("fixed vector: sha256= hex HMAC-SHA256 of id + timestamp + body", async () => {
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(SENT))).toBe(true);
  });

  test("a changed body, id, timestamp or secret fails; missing headers fail without throwing", async () => {
    const now = at(SENT);
    const ctx = pluginContext(VECTOR.secret, now);
    expect(await plugin.verify(tampered(vectorRequest()), ctx)).toBe(false);
    expect(await plugin.verify(withHeaders(vectorRequest(), { "twitch-eventsub-message-id": "other" }), ctx)).toBe(false);
    expect(await plugin.verify(withHeaders(vectorRequest(), { "twitch-eventsub-message-timestamp": "2019-11-16T10:11:12.634234627Z" }), ctx)).toBe(false);
    expect(await plugin.verify(vectorRequest(), pluginContext("other_secret", now))).toBe(false);
    for (const name of ["twitch-eventsub-message-id", "twitch-eventsub-message-timestamp", "twitch-eventsub-message-signature"]) {
      expect(await plugin.verify(withHeaders(vectorRequest(), { [name]: null }), ctx)).toBe(false);
    }
  });

  test("the RFC 3339 timestamp (nanoseconds) is read in seconds and enforced: 10 minutes", async () => {
    expect(SENT).toBeCloseTo(1573899072.634234626, 6);
    expect(plugin.timestamp(vectorRequest())).toBe(SENT);
    expect(plugin.toleranceSeconds).toBe(600);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(SENT + 600))).toBe(true);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(SENT + 601))).toBe(false);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(SENT - 601))).toBe(false);
    expect(plugin.timestamp(withHeaders(vectorRequest(), { "twitch-eventsub-message-timestamp": "yesterday" }))).toBeNull();
  });

  test("RFC 3339 parsing: offsets, fractions, junk", () => {
    expect(rfc3339Seconds("1970-01-01T00:00:01Z")).toBe(1);
    expect(rfc3339Seconds("1970-01-01T01:00:01+01:00")).toBe(1);
    expect(rfc3339Seconds("1970-01-01T00:00:00.25z")).toBe(0.25);
    expect(rfc3339Seconds("1970-13-01T00:00:00Z")).toBeNull();
    expect(rfc3339Seconds("1970-01-01T00:00:00")).toBeNull();
    expect(rfc3339Seconds("1700000000")).toBeNull();
  });

  test("sign() round-trips; the message id is the delivery id and survives a resend", async () => {
    const first = await signedFixture(plugin, fixture, new Date());
    const resend = await signedFixture(plugin, fixture, new Date(Date.now() + 5000));
    for (const req of [first, resend]) {
      expect(await accepted(plugin, req, fixture.appSecret, new Date())).toBe(true);
      expect(plugin.deliveryId(req)).toBe(fixture.deliveryId);
    }
    expect(first.headers.get("twitch-eventsub-message-signature")).not.toBe(resend.headers.get("twitch-eventsub-message-signature"));
  });

  test("event: the subscription type for notifications, the message type otherwise", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(plugin.event(req, JSON.parse(fixture.body))).toBe("channel.follow");
    expect(plugin.event(withHeaders(req, { "twitch-eventsub-message-type": "revocation" }), JSON.parse(fixture.body))).toBe("revocation");
  });

  test("inlet generates the subscription secret", () => {
    expect(plugin.secret.generated).toBe(true);
  });
});

describe("twitch: webhook_callback_verification", () => {
  const body = JSON.stringify({
    challenge: "pogchamp-kappa-360noscope-vohiyo",
    subscription: { id: "f1c2a387-161a-49f9-a165-0f21d7a4e1c4", status: "webhook_callback_verification_pending", type: "channel.follow", version: "2" },
  });
  const headers = { "twitch-eventsub-message-type": "webhook_callback_verification" };

  test("a signed verification is answered 200 text/plain with the raw challenge", async () => {
    const now = new Date();
    const req = await signedFixture(plugin, { ...fixture, body, headers }, now);
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
    const response = await plugin.handshake(req, pluginContext(fixture.appSecret, now));
    expect(response?.status).toBe(200);
    expect(response?.headers.get("content-type")).toBe("text/plain");
    expect(await response?.text()).toBe("pogchamp-kappa-360noscope-vohiyo");
  });

  test("an unsigned verification gets no echo", async () => {
    const req = requestOf({ headers, body });
    expect(await accepted(plugin, req, fixture.appSecret, new Date())).toBe(false);
    expect(await plugin.handshake(req, pluginContext(fixture.appSecret, new Date()))).toBeNull();
  });

  test("notifications and revocations are not handshakes", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(await plugin.handshake(req, pluginContext(fixture.appSecret, new Date()))).toBeNull();
  });
});
