import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import shopifyPlugin from "./index.ts";

const shopify: InletPlugin = shopifyPlugin;

const NOW = new Date(1_750_000_000_000);
const expected = createHmac("sha256", fixture.appSecret).update(fixture.body).digest("base64");

describe("shopify plugin", () => {
  test("signs base64 HMAC-SHA256(client secret, raw body), no prefix", async () => {
    const req = await signedFixture(shopify, fixture, NOW);
    expect(req.headers.get("x-shopify-hmac-sha256")).toBe(expected);
    expect(await accepted(shopify, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("accepts the Events delivery's unprefixed Shopify-Hmac-Sha256", async () => {
    const req = requestOf({ body: fixture.body, headers: { "shopify-hmac-sha256": expected } });
    expect(await accepted(shopify, req, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(shopify, withHeaders(req, { "shopify-hmac-sha256": "sha256=" + expected }), fixture.appSecret, NOW)).toBe(false);
  });

  test("dedups by X-Shopify-Event-Id, falling back to the webhook id", async () => {
    const req = await signedFixture(shopify, fixture, NOW);
    const ctx = pluginContext(fixture.appSecret, NOW);
    expect(shopify.deliveryId!(req, ctx)).toBe("98880550-7158-44d4-b7cd-2c97c8a091b5");
    expect(shopify.deliveryId!(withHeaders(req, { "x-shopify-event-id": null }), ctx)).toBe("b54557e4-bdd9-4b37-8a5f-bf7d70bcd043");
    expect(shopify.event!(req, {})).toBe("orders/create");
    expect(shopify.event!(requestOf({ headers: { "shopify-topic": "app/uninstalled" } }), {})).toBe("app/uninstalled");
  });
});
