import { describe, expect, test } from "bun:test";
import { Signature } from "@hubspot/api-client";
import { pluginContext } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, tampered, TRIGGER_URL, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";
import { hubspotLegacySignature, hubspotRequestUri, hubspotSignatureV3 } from "./signature.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const ctx = pluginContext("", new Date());
const DOCS_SECRET = "yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy";
const V1_BODY =
  '[{"eventId":1,"subscriptionId":12345,"portalId":62515,"occurredAt":1564113600000,"subscriptionType":"contact.creation","attemptNumber":0,"objectId":123,"changeSource":"CRM","changeFlag":"NEW","appId":54321}]';

// v3: self-generated with @hubspot/api-client Signature.getSignature (docs/plugins.md#test-vectors).
const V3 = {
  secret: "hs_client_secret",
  url: "https://example.com/webhooks/hubspot",
  body: '{"id":"evt_1","type":"test"}',
  timestamp: "1700000000000",
  signature: "NHvt//1PYuHS54tQXqw8Rq1KFkcLGo8UGITnYmaI9Kk=",
};
const v3Request = () =>
  requestOf({
    url: V3.url,
    headers: { "x-hubspot-signature-v3": V3.signature, "x-hubspot-request-timestamp": V3.timestamp },
    body: V3.body,
  });
const V3_TIME = new Date(1700000000000);

describe("hubspot: published vectors", () => {
  test("v1 (docs FAQ): SHA-256 of secret + body", () => {
    expect(hubspotLegacySignature(ctx, "v1", DOCS_SECRET, "POST", "", encode(V1_BODY))).toBe(
      "232db2615f3d666fe21a8ec971ac7b5402d33b9a925784df3ca654d05f4817de",
    );
  });

  test("v2 (docs FAQ): SHA-256 of secret + method + uri (+ body)", () => {
    expect(hubspotLegacySignature(ctx, "v2", DOCS_SECRET, "GET", "https://www.example.com/webhook_uri", encode(""))).toBe(
      "eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e",
    );
    expect(hubspotLegacySignature(ctx, "v2", DOCS_SECRET, "POST", "https://www.example.com/webhook_uri", encode('{"example_field":"example_value"}'))).toBe(
      "9569219f8ba981ffa6f6f16aa0f48637d35d728c7e4d93d0d52efaa512af7900",
    );
  });

  test("v3: base64 HMAC-SHA256 of method + uri + body + timestamp", async () => {
    expect(hubspotSignatureV3(ctx, V3.secret, "POST", V3.url, encode(V3.body), V3.timestamp)).toBe(V3.signature);
    expect(await accepted(plugin, v3Request(), V3.secret, V3_TIME)).toBe(true);
    const signed = await plugin.sign(requestOf({ url: V3.url, body: V3.body }), pluginContext(V3.secret, V3_TIME));
    expect(signed.headers).toEqual({ "X-HubSpot-Signature-v3": V3.signature, "X-HubSpot-Request-Timestamp": V3.timestamp });
  });

  test("the SDK agrees with every version", () => {
    const sdk = (version: string, method: string, url: string, body: string, timestamp?: number) =>
      Signature.getSignature(method, version, { clientSecret: DOCS_SECRET, url, requestBody: body, timestamp, signature: "" });
    expect(sdk("v1", "POST", "", V1_BODY)).toBe(hubspotLegacySignature(ctx, "v1", DOCS_SECRET, "POST", "", encode(V1_BODY)));
    expect(sdk("v2", "GET", "https://www.example.com/webhook_uri", "")).toBe("eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e");
    expect(sdk("v3", "POST", V3.url, V3.body, 1700000000000)).toBe(hubspotSignatureV3(ctx, DOCS_SECRET, "POST", V3.url, encode(V3.body), V3.timestamp));
  });
});

describe("hubspot: interoperability with @hubspot/api-client", () => {
  test("a request signed with Signature.getSignature verifies", async () => {
    const now = new Date();
    const url = TRIGGER_URL + "?portal=62515";
    const signature = Signature.getSignature("POST", "v3", {
      clientSecret: fixture.appSecret,
      url,
      requestBody: fixture.body,
      timestamp: now.getTime(),
      signature: "",
    });
    const req = requestOf({
      url,
      headers: { "x-hubspot-signature-v3": signature, "x-hubspot-request-timestamp": String(now.getTime()) },
      body: fixture.body,
    });
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
  });

  test("sign() output passes Signature.isValid (v3)", async () => {
    const now = new Date();
    const req = await signedFixture(plugin, { ...fixture, query: "?portal=62515" }, now);
    expect(
      Signature.isValid({
        signatureVersion: "v3",
        method: "POST",
        clientSecret: fixture.appSecret,
        url: req.url,
        requestBody: fixture.body,
        signature: req.headers.get("x-hubspot-signature-v3") as string,
        timestamp: Number(req.headers.get("x-hubspot-request-timestamp")),
      }),
    ).toBe(true);
  });
});

describe("hubspot: verification", () => {
  test("the URI is signed with HubSpot's listed escapes decoded", async () => {
    expect(hubspotRequestUri("https://x.test/h?a=%3a%2F%3F%40%21%24%27%28%29%2A%2C%3B&b=%20%25")).toBe("https://x.test/h?a=:/?@!$'()*,;&b=%20%25");
    const now = new Date();
    const req = await signedFixture(plugin, fixture, now);
    expect(req.url).toEndWith("?source=hubspot%2Fcrm");
    const decodedSignature = hubspotSignatureV3(
      ctx,
      fixture.appSecret,
      "POST",
      req.url.replace("%2F", "/"),
      req.rawBody,
      req.headers.get("x-hubspot-request-timestamp") as string,
    );
    expect(req.headers.get("x-hubspot-signature-v3")).toBe(decodedSignature);
    expect(await accepted(plugin, req, fixture.appSecret, now)).toBe(true);
  });

  test("a changed method, URL, body, timestamp or secret fails", async () => {
    const c = pluginContext(V3.secret, V3_TIME);
    expect(await plugin.verify({ ...v3Request(), method: "PUT" }, c)).toBe(false);
    expect(await plugin.verify({ ...v3Request(), url: V3.url + "?x=1" }, c)).toBe(false);
    expect(await plugin.verify(tampered(v3Request()), c)).toBe(false);
    expect(await plugin.verify(withHeaders(v3Request(), { "x-hubspot-request-timestamp": "1700000000001" }), c)).toBe(false);
    expect(await plugin.verify(v3Request(), pluginContext("other", V3_TIME))).toBe(false);
    expect(await plugin.verify(v3Request(), pluginContext("", V3_TIME))).toBe(false);
  });

  test("the millisecond timestamp is read in seconds and enforced ±300 s", async () => {
    expect(plugin.timestamp(v3Request())).toBe(1700000000);
    expect(await accepted(plugin, v3Request(), V3.secret, new Date(1700000300000))).toBe(true);
    expect(await accepted(plugin, v3Request(), V3.secret, new Date(1700000300001))).toBe(false);
    expect(await accepted(plugin, v3Request(), V3.secret, new Date(1699999699999))).toBe(false);
    expect(await plugin.verify(withHeaders(v3Request(), { "x-hubspot-request-timestamp": "soon" }), pluginContext(V3.secret, V3_TIME))).toBe(false);
  });

  test("legacy v1/v2 alone are refused: stripping v3 must not remove the replay protection", async () => {
    const v1 = hubspotLegacySignature(ctx, "v1", DOCS_SECRET, "POST", "", encode(V1_BODY));
    const req = requestOf({ headers: { "x-hubspot-signature": v1, "x-hubspot-signature-version": "v1" }, body: V1_BODY });
    expect(await plugin.verify(req, pluginContext(DOCS_SECRET, new Date()))).toBe(false);
  });
});

describe("hubspot: delivery id and event", () => {
  test("the delivery id is SHA-256 of the batch's sorted (subscriptionId:eventId:occurredAt)", async () => {
    const req = await signedFixture(plugin, fixture, new Date());
    expect(plugin.deliveryId(req, pluginContext(fixture.appSecret, new Date()))).toBe(fixture.deliveryId);
  });

  test("a retry (attemptNumber changes, order may differ) keeps the delivery id", () => {
    const events = JSON.parse(fixture.body) as Array<Record<string, unknown>>;
    const retry = JSON.stringify(events.map((e) => ({ ...e, attemptNumber: 1 })).reverse());
    expect(plugin.deliveryId(requestOf({ body: retry }), ctx)).toBe(fixture.deliveryId);
  });

  test("two events whose eventIds differ beyond 2^53 have two delivery ids", () => {
    const batch = (eventId: string) => `[{"subscriptionId":1,"eventId":${eventId},"occurredAt":1700000000000}]`;
    const a = plugin.deliveryId(requestOf({ body: batch("9007199254740993") }), ctx);
    expect(a).not.toBeNull();
    expect(a).not.toBe(plugin.deliveryId(requestOf({ body: batch("9007199254740992") }), ctx));
    expect(a).toBe(ctx.hash("sha256", "1:9007199254740993:1700000000000", "hex"));
  });

  test("bodies that are not a batch of identified events have none", () => {
    for (const body of ["{}", "[]", "not json", '[{"eventId":1}]']) expect(plugin.deliveryId(requestOf({ body }), ctx)).toBeNull();
  });

  test("event: the batch's distinct subscription types", () => {
    expect(plugin.event(requestOf(), JSON.parse(fixture.body))).toBe("contact.propertyChange");
    expect(
      plugin.event(requestOf(), [{ subscriptionType: "deal.creation" }, { subscriptionType: "contact.creation" }, { subscriptionType: "deal.creation" }]),
    ).toBe("deal.creation,contact.creation");
    expect(plugin.event(requestOf(), { callbackId: "x" })).toBeNull();
  });
});
