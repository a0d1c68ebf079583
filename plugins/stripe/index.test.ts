import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import stripePlugin from "./index.ts";

const stripe: InletPlugin = stripePlugin;

const NOW = new Date(1_750_000_000_000);
const at = (unix: number) => new Date(unix * 1000);

describe("stripe plugin", () => {
  // docs/plugins.md#test-vectors: made with stripe 23.1.0 generateTestHeaderString, accepted by constructEvent.
  test("reproduces the stripe-node test header vector", async () => {
    const body = '{"id":"evt_test_webhook","object":"event"}';
    const header = "t=1700000000,v1=d95c6b7477fbd7e9f90b1b0ef5f9c7ac25abca5382460e0d988c2b2a5b71b990";
    const req = requestOf({ body });
    expect(await stripe.sign!(req, pluginContext("whsec_test_secret", at(1700000000)))).toEqual({ headers: { "Stripe-Signature": header } });
    expect(await accepted(stripe, withHeaders(req, { "stripe-signature": header }), "whsec_test_secret", at(1700000000))).toBe(true);
  });

  test("accepts a header from Stripe's generateTestHeaderStringAsync", async () => {
    const header = await Stripe.webhooks.generateTestHeaderStringAsync({ payload: fixture.body, secret: fixture.appSecret, timestamp: NOW.getTime() / 1000 });
    const req = requestOf({ body: fixture.body, headers: { "stripe-signature": header } });
    expect(await accepted(stripe, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("signs what Stripe's constructEventAsync accepts", async () => {
    const req = await signedFixture(stripe, fixture, NOW);
    const event = await Stripe.webhooks.constructEventAsync(
      fixture.body,
      req.headers.get("stripe-signature")!,
      fixture.appSecret,
      300,
      undefined,
      NOW.getTime(),
    );
    expect(event.id).toBe("evt_3PXk2aLkdIwHu7ix0Q9zWmRb");
  });

  test("accepts any v1 entry while a secret is rolled, and ignores v0", async () => {
    const t = String(NOW.getTime() / 1000);
    const v = (secret: string) => createHmac("sha256", secret).update(`${t}.${fixture.body}`).digest("hex");
    const req = requestOf({ body: fixture.body, headers: { "stripe-signature": `t=${t},v1=${v("whsec_old")},v1=${v(fixture.appSecret)},v0=${v("whsec_x")}` } });
    expect(await accepted(stripe, req, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(stripe, req, "whsec_old", NOW)).toBe(true);
    expect(await accepted(stripe, req, "whsec_x", NOW)).toBe(false);
    expect(await accepted(stripe, withHeaders(req, { "stripe-signature": `t=${t},v0=${v(fixture.appSecret)}` }), fixture.appSecret, NOW)).toBe(false);
  });

  test("extracts t for the host's 300 s tolerance", async () => {
    const req = await signedFixture(stripe, fixture, NOW);
    expect(stripe.timestamp!(req, pluginContext(fixture.appSecret, NOW))).toBe(1_750_000_000);
    expect(stripe.toleranceSeconds).toBe(300);
    expect(stripe.timestamp!(withHeaders(req, { "stripe-signature": "t=17e8,v1=00" }), pluginContext(fixture.appSecret, NOW))).toBeNull();
    expect(await accepted(stripe, await signedFixture(stripe, fixture, at(1_750_000_000 - 301)), fixture.appSecret, NOW)).toBe(false);
  });

  test("dedups by the event id, which every retry repeats", async () => {
    const first = await signedFixture(stripe, fixture, NOW);
    const retry = await signedFixture(stripe, fixture, at(1_750_000_000 + 3600));
    expect(first.headers.get("stripe-signature")).not.toBe(retry.headers.get("stripe-signature"));
    const ctx = pluginContext(fixture.appSecret, NOW);
    expect(stripe.deliveryId!(retry, ctx)).toBe(stripe.deliveryId!(first, ctx));
    expect(stripe.deliveryId!(first, ctx)).toBe("evt_3PXk2aLkdIwHu7ix0Q9zWmRb");
    expect(stripe.event!(first, JSON.parse(fixture.body))).toBe("payment_intent.succeeded");
  });
});
