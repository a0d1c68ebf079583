import { describe, expect, test } from "bun:test";
import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import githubPlugin from "./index.ts";

const github: InletPlugin = githubPlugin;

const NOW = new Date(1_750_000_000_000);

describe("github plugin", () => {
  test("reproduces the vector of GitHub's 'Validating webhook deliveries'", async () => {
    const secret = "It's a Secret to Everybody";
    const expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    const req = requestOf({ body: "Hello, World!" });
    expect(await github.sign!(req, pluginContext(secret, NOW))).toEqual({ headers: { "X-Hub-Signature-256": expected } });
    expect(await accepted(github, withHeaders(req, { "x-hub-signature-256": expected }), secret, NOW)).toBe(true);
  });

  test("accepts a signature made by @octokit/webhooks-methods", async () => {
    const req = requestOf({ body: fixture.body, headers: { "x-hub-signature-256": await octokitSign(fixture.appSecret, fixture.body) } });
    expect(await accepted(github, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("signs what @octokit/webhooks-methods verifies", async () => {
    const req = await signedFixture(github, fixture, NOW);
    expect(await octokitVerify(fixture.appSecret, fixture.body, req.headers.get("x-hub-signature-256")!)).toBe(true);
  });

  test("does not accept the legacy SHA-1 header alone", async () => {
    const req = await signedFixture(github, fixture, NOW);
    const sha1 = "sha1=" + new Bun.CryptoHasher("sha1", fixture.appSecret).update(fixture.body).digest("hex");
    expect(await accepted(github, withHeaders(req, { "x-hub-signature-256": null, "x-hub-signature": sha1 }), fixture.appSecret, NOW)).toBe(false);
  });

  test("reads the delivery id and event from GitHub's headers", async () => {
    const req = await signedFixture(github, fixture, NOW);
    expect(github.deliveryId!(req, pluginContext(fixture.appSecret, NOW))).toBe("72d3162e-cc78-11e3-81ab-4c9367dc0958");
    expect(github.event!(req, JSON.parse(fixture.body))).toBe("push");
    expect(github.event!(withHeaders(req, { "x-github-event": "ping" }), {})).toBe("ping");
  });

  test("generates its secret and keeps both signature headers out of $trigger", () => {
    expect(github.secret.generated).toBe(true);
    expect(github.credentialHeaders).toEqual(["x-hub-signature-256", "x-hub-signature"]);
  });
});
