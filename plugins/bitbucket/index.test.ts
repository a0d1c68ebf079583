import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import bitbucketPlugin from "./index.ts";
import fixture from "./fixture.ts";

const bitbucket: InletPlugin = bitbucketPlugin;

const NOW = new Date(1_750_000_000_000);

describe("bitbucket plugin", () => {
  test("accepts sha256=HMAC-SHA256(secret, raw body) in X-Hub-Signature", async () => {
    const signature = "sha256=" + createHmac("sha256", fixture.appSecret).update(fixture.body).digest("hex");
    expect(await accepted(bitbucket, requestOf({ body: fixture.body, headers: { "x-hub-signature": signature } }), fixture.appSecret, NOW)).toBe(true);
    const signed = await signedFixture(bitbucket, fixture, NOW);
    expect(signed.headers.get("x-hub-signature")).toBe(signature);
  });

  test("reads the request UUID (Cloud) or request id (Data Center) and the event key", async () => {
    const req = await signedFixture(bitbucket, fixture, NOW);
    const ctx = pluginContext(fixture.appSecret, NOW);
    expect(bitbucket.deliveryId!(req, ctx)).toBe("1f0e7a4c-2b3d-4e5f-8a9b-0c1d2e3f4a5b");
    // A retry carries the same X-Request-UUID with the next attempt number.
    expect(bitbucket.deliveryId!(withHeaders(req, { "x-attempt-number": "2" }), ctx)).toBe("1f0e7a4c-2b3d-4e5f-8a9b-0c1d2e3f4a5b");
    expect(bitbucket.deliveryId!(withHeaders(req, { "x-request-uuid": null, "x-request-id": "dc-42" }), ctx)).toBe("dc-42");
    expect(bitbucket.event!(req, {})).toBe("repo:push");
  });
});
