import { describe, expect, test } from "bun:test";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import squarePlugin from "./index.ts";

const square: InletPlugin = squarePlugin;

const NOW = new Date(1_750_000_000_000);

describe("square plugin", () => {
  // docs/plugins.md#test-vectors: self-generated and checked with the square SDK's WebhooksHelper.
  test("reproduces the WebhooksHelper-checked vector (URL + body, base64)", async () => {
    const req = requestOf({ url: "https://example.com/webhooks/square", body: '{"id":"evt_1","type":"test"}' });
    const expected = "LQuZhK1xKGx4z9mJ/MW+cPTW1SUa3dqABWDJpGyFUfc=";
    expect(await square.sign!(req, pluginContext("sq_sig_key", NOW))).toEqual({ headers: { "x-square-hmacsha256-signature": expected } });
    expect(await accepted(square, withHeaders(req, { "x-square-hmacsha256-signature": expected }), "sq_sig_key", NOW)).toBe(true);
  });

  test("fails when the URL differs from the one signed", async () => {
    const req = await signedFixture(square, fixture, NOW);
    expect(await accepted(square, req, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(square, { ...req, url: req.url + "/" }, fixture.appSecret, NOW)).toBe(false);
    expect(await accepted(square, { ...req, url: req.url.replace("https:", "http:") }, fixture.appSecret, NOW)).toBe(false);
  });

  test("reads event_id and type from the body", async () => {
    const req = await signedFixture(square, fixture, NOW);
    expect(square.deliveryId!(req, pluginContext(fixture.appSecret, NOW))).toBe("13b867cf-db3d-4b1c-90b6-2f32a9d78124");
    expect(square.event!(req, JSON.parse(fixture.body))).toBe("payment.created");
    expect(square.credentialHeaders).toEqual(["x-square-hmacsha256-signature", "x-square-signature"]);
  });
});
