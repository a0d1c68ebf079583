import { describe, expect, test } from "bun:test";
import { pluginContext } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, tampered, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

const at = (seconds: number) => new Date(seconds * 1000);
// Self-generated with node:crypto: HMAC-SHA256("zoom_secret_token", 'v0:1700000000:{"event":"meeting.started"}').
const VECTOR = {
  secret: "zoom_secret_token",
  timestamp: "1700000000",
  body: '{"event":"meeting.started"}',
  signature: "v0=3e26cabfef3d31e659f8b672f08a7e4872438adf9c171b0122eefa5e8c0c6803",
};
const vectorRequest = () => requestOf({ headers: { "x-zm-request-timestamp": VECTOR.timestamp, "x-zm-signature": VECTOR.signature }, body: VECTOR.body });

describe("zoom: signature", () => {
  test("fixed vector: v0= hex HMAC-SHA256 of v0:{ts}:{body}", async () => {
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1700000000))).toBe(true);
    const signed = await plugin.sign(requestOf({ body: VECTOR.body }), pluginContext(VECTOR.secret, at(1700000000)));
    expect(signed.headers).toEqual({ "x-zm-request-timestamp": VECTOR.timestamp, "x-zm-signature": VECTOR.signature });
  });

  test("a changed body, timestamp or secret fails; missing headers fail without throwing", async () => {
    const now = at(1700000000);
    expect(await accepted(plugin, tampered(vectorRequest()), VECTOR.secret, now)).toBe(false);
    expect(await accepted(plugin, withHeaders(vectorRequest(), { "x-zm-request-timestamp": "1700000001" }), VECTOR.secret, now)).toBe(false);
    expect(await accepted(plugin, vectorRequest(), "other", now)).toBe(false);
    for (const name of ["x-zm-request-timestamp", "x-zm-signature"]) {
      expect(await plugin.verify(withHeaders(vectorRequest(), { [name]: null }), pluginContext(VECTOR.secret, now))).toBe(false);
    }
    expect(await plugin.verify(withHeaders(vectorRequest(), { "x-zm-request-timestamp": "soon" }), pluginContext(VECTOR.secret, now))).toBe(false);
  });

  test("the timestamp is enforced ±300 s; a millisecond value is read as such", async () => {
    expect(plugin.toleranceSeconds).toBe(300);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1700000300))).toBe(true);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1700000301))).toBe(false);
    expect(await accepted(plugin, vectorRequest(), VECTOR.secret, at(1699999699))).toBe(false);
    expect(plugin.timestamp(withHeaders(vectorRequest(), { "x-zm-request-timestamp": "1700000000123" }))).toBe(1700000000.123);
  });

  test("no delivery id: identical bodies are deduplicated over the retry schedule", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect("deliveryId" in plugin).toBe(false);
    expect(plugin.contentDedupWindowSeconds).toBeGreaterThanOrEqual(85 * 60);
    expect(plugin.event(req, JSON.parse(fixture.body))).toBe(fixture.event);
    expect(await accepted(plugin, req, fixture.appSecret, new Date())).toBe(true);
  });
});

describe("zoom: endpoint.url_validation", () => {
  const body = JSON.stringify({ payload: { plainToken: "qgg8vlvZRS6UYooatFL8Aw" }, event_ts: 1700000000123, event: "endpoint.url_validation" });
  const now = at(1700000000);

  test("a signed validation gets {plainToken, encryptedToken = hex HMAC-SHA256(secret, plainToken)}", async () => {
    const signed = await plugin.sign(requestOf({ body }), pluginContext(VECTOR.secret, now));
    const req = requestOf({ headers: signed.headers, body });
    expect(await accepted(plugin, req, VECTOR.secret, now)).toBe(true);
    const response = await plugin.handshake(req, pluginContext(VECTOR.secret, now));
    expect(response).toBeInstanceOf(Response);
    expect(response?.status).toBe(200);
    expect(response?.headers.get("content-type")).toContain("application/json");
    expect(await response?.json()).toEqual({
      plainToken: "qgg8vlvZRS6UYooatFL8Aw",
      encryptedToken: "bd48235863f4a6323ccc4963c594908b7c97f88b4a6a95278f4f093690b12726",
    });
  });

  test("an unsigned or badly signed validation is refused and gets no token (no HMAC oracle)", async () => {
    const unsigned = requestOf({ body });
    expect(await accepted(plugin, unsigned, VECTOR.secret, now)).toBe(false);
    expect(await plugin.handshake(unsigned, pluginContext(VECTOR.secret, now))).toBeNull();
    const forged = requestOf({ headers: { "x-zm-request-timestamp": "1700000000", "x-zm-signature": "v0=00" }, body });
    expect(await plugin.handshake(forged, pluginContext(VECTOR.secret, now))).toBeNull();
  });

  test("ordinary events are not handshakes", async () => {
    const req = await signedFixture(plugin, fixture, now);
    expect(await plugin.handshake(req, pluginContext(fixture.appSecret, now))).toBeNull();
  });
});
