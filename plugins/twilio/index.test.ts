import { describe, expect, test } from "bun:test";
import twilioSdk from "twilio";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import twilioPlugin from "./index.ts";

const twilio: InletPlugin = twilioPlugin;

const NOW = new Date(1_750_000_000_000);
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const formOf = (params: Record<string, string>) => new URLSearchParams(params).toString();

// Twilio "Webhooks security" examples (older and newer).
const DOCS_URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
const DOCS_PARAMS = { CallSid: "CA1234567890ABCDE", Caller: "+14158675309", Digits: "1234", From: "+14158675309", To: "+18005551212" };

describe("twilio plugin", () => {
  test("reproduces both examples of Twilio's docs", async () => {
    const older = requestOf({ url: DOCS_URL, headers: FORM, body: formOf(DOCS_PARAMS) });
    expect(await twilio.sign!(older, pluginContext("12345", NOW))).toEqual({ headers: { "X-Twilio-Signature": "RSOYDt4T1cUTdK1PDd93/VVr8B8=" } });
    expect(await accepted(twilio, withHeaders(older, { "x-twilio-signature": "RSOYDt4T1cUTdK1PDd93/VVr8B8=" }), "12345", NOW)).toBe(true);

    const newer = requestOf({ url: DOCS_URL, headers: FORM, body: formOf({ ...DOCS_PARAMS, Caller: "+12349013030", From: "+12349013030" }) });
    expect(await twilio.sign!(newer, pluginContext("12345", NOW))).toEqual({ headers: { "X-Twilio-Signature": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=" } });
    expect(await accepted(twilio, withHeaders(newer, { "x-twilio-signature": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=" }), "12345", NOW)).toBe(true);
  });

  test("accepts a signature from the SDK's getExpectedTwilioSignature", async () => {
    const url = "https://inlet.example.com/webhooks/tok_3b1f0c2a?team=ops";
    const params = Object.fromEntries(new URLSearchParams(fixture.body));
    const signature = twilioSdk.getExpectedTwilioSignature(fixture.appSecret, url, params);
    const req = requestOf({ url, headers: { ...FORM, "x-twilio-signature": signature }, body: fixture.body });
    expect(await accepted(twilio, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("signs what the SDK's validateRequest accepts", async () => {
    const req = await signedFixture(twilio, fixture, NOW);
    const params = Object.fromEntries(new URLSearchParams(fixture.body));
    expect(twilioSdk.validateRequest(fixture.appSecret, req.headers.get("x-twilio-signature")!, req.url, params)).toBe(true);
  });

  test("signs repeated parameters the SDK's way (distinct values, sorted)", async () => {
    const body = "To=%2B14155550100&MediaUrl=https%3A%2F%2Fb.example&MediaUrl=https%3A%2F%2Fa.example&MediaUrl=https%3A%2F%2Fb.example";
    const req = requestOf({ url: DOCS_URL, headers: FORM, body });
    const expected = twilioSdk.getExpectedTwilioSignature("12345", DOCS_URL, {
      To: "+14155550100",
      MediaUrl: ["https://b.example", "https://a.example", "https://b.example"],
    } as unknown as Record<string, string>);
    expect((await twilio.sign!(req, pluginContext("12345", NOW))).headers["X-Twilio-Signature"]).toBe(expected);
    expect(await accepted(twilio, withHeaders(req, { "x-twilio-signature": expected }), "12345", NOW)).toBe(true);
  });

  test("signs a JSON body through bodySHA256, as validateRequestWithBody expects", async () => {
    const body = JSON.stringify({ type: "com.twilio.messaging.inbound-message.received", data: { messageSid: "SM123" } });
    const unsigned = requestOf({ headers: { "content-type": "application/json" }, body });
    const signed = await twilio.sign!(unsigned, pluginContext(fixture.appSecret, NOW));
    expect(signed.url).toBe(`${unsigned.url}?bodySHA256=${twilioSdk.getExpectedBodyHash(body)}`);
    const signature = signed.headers["X-Twilio-Signature"];
    expect(twilioSdk.validateRequestWithBody(fixture.appSecret, signature, signed.url!, body)).toBe(true);
    const req = { ...withHeaders(unsigned, { "x-twilio-signature": signature }), url: signed.url! };
    expect(await accepted(twilio, req, fixture.appSecret, NOW)).toBe(true);
    expect(twilio.event!(req, JSON.parse(body))).toBe("com.twilio.messaging.inbound-message.received");
    // The URL is signed, the body through its hash: either changed fails.
    expect(await accepted(twilio, { ...req, rawBody: new TextEncoder().encode(body + " ") }, fixture.appSecret, NOW)).toBe(false);
    expect(await accepted(twilio, { ...req, url: req.url.replace(/.$/, "0") }, fixture.appSecret, NOW)).toBe(false);
  });

  test("accepts a URL signed with or without its default port", async () => {
    const params = { CallSid: "CA1", CallStatus: "ringing" };
    const withPort = twilioSdk.getExpectedTwilioSignature("12345", "https://inlet.example.com:443/webhooks/tok", params);
    const req = requestOf({ url: "https://inlet.example.com/webhooks/tok", headers: { ...FORM, "x-twilio-signature": withPort }, body: formOf(params) });
    expect(await accepted(twilio, req, "12345", NOW)).toBe(true);
    const withoutPort = twilioSdk.getExpectedTwilioSignature("12345", "https://inlet.example.com/webhooks/tok", params);
    const onPort = requestOf({
      url: "https://inlet.example.com:443/webhooks/tok",
      headers: { ...FORM, "x-twilio-signature": withoutPort },
      body: formOf(params),
    });
    expect(await accepted(twilio, onPort, "12345", NOW)).toBe(true);
    // Like the SDK, any port is also tried removed; the host, path and query still have to match.
    expect(await accepted(twilio, { ...onPort, url: "https://inlet.example.com:443/webhooks/tok2" }, "12345", NOW)).toBe(false);
    expect(await accepted(twilio, { ...onPort, url: "https://inlet.example.net:443/webhooks/tok" }, "12345", NOW)).toBe(false);
  });

  test("dedups by I-Twilio-Idempotency-Token and names the status", async () => {
    const req = await signedFixture(twilio, fixture, NOW);
    expect(twilio.deliveryId!(req, pluginContext(fixture.appSecret, NOW))).toBe("3b6c2e0a-8d4f-4e1b-9a7c-5f2d1e0b3c4a");
    expect(twilio.deliveryId!(withHeaders(req, { "i-twilio-idempotency-token": null }), pluginContext(fixture.appSecret, NOW))).toBeNull();
    // No content window: a <Redirect> loop legitimately posts the same parameters twice.
    expect(twilio.contentDedupWindowSeconds).toBeUndefined();
    expect(twilio.event!(req, { CallSid: "CA1", CallStatus: ["completed"] })).toBe("completed");
    expect(twilio.event!(req, null)).toBe("received");
  });
});
