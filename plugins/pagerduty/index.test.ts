import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import pagerdutyPlugin from "./index.ts";

const pagerduty: InletPlugin = pagerdutyPlugin;

const NOW = new Date(1_750_000_000_000);
const v1 = (secret: string) => "v1=" + createHmac("sha256", secret).update(fixture.body).digest("hex");

describe("pagerduty plugin", () => {
  test("signs v1=HMAC-SHA256(secret, raw body)", async () => {
    const req = await signedFixture(pagerduty, fixture, NOW);
    expect(req.headers.get("x-pagerduty-signature")).toBe(v1(fixture.appSecret));
  });

  test("accepts any v1 entry of a rotated secret's list, and only those", async () => {
    const req = await signedFixture(pagerduty, fixture, NOW);
    const rotated = withHeaders(req, { "x-pagerduty-signature": `${v1("old-secret")},${v1(fixture.appSecret)}` });
    expect(await accepted(pagerduty, rotated, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(pagerduty, rotated, "old-secret", NOW)).toBe(true);
    expect(await accepted(pagerduty, rotated, "another-secret", NOW)).toBe(false);
    const wrongScheme = withHeaders(req, { "x-pagerduty-signature": v1(fixture.appSecret).replace("v1=", "v2=") });
    expect(await accepted(pagerduty, wrongScheme, fixture.appSecret, NOW)).toBe(false);
  });

  test("reads X-Webhook-Id and the event type", async () => {
    const req = await signedFixture(pagerduty, fixture, NOW);
    expect(pagerduty.deliveryId!(req, pluginContext(fixture.appSecret, NOW))).toBe("c3f2a1b0-9e8d-4c7b-a6f5-e4d3c2b1a0f9");
    expect(pagerduty.event!(req, JSON.parse(fixture.body))).toBe("incident.triggered");
  });
});
