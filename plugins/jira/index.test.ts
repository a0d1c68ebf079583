import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import jiraPlugin from "./index.ts";

const jira: InletPlugin = jiraPlugin;

const NOW = new Date(1_750_000_000_000);

describe("jira plugin", () => {
  test("accepts sha256=HMAC-SHA256(secret, raw body) in X-Hub-Signature", async () => {
    const signature = "sha256=" + createHmac("sha256", fixture.appSecret).update(fixture.body).digest("hex");
    expect(await accepted(jira, requestOf({ body: fixture.body, headers: { "x-hub-signature": signature } }), fixture.appSecret, NOW)).toBe(true);
    expect((await signedFixture(jira, fixture, NOW)).headers.get("x-hub-signature")).toBe(signature);
  });

  test("keeps the webhook identifier across retries and reads webhookEvent", async () => {
    const req = await signedFixture(jira, fixture, NOW);
    const retry = withHeaders(req, { "x-atlassian-webhook-retry": "1" });
    expect(jira.deliveryId!(retry, pluginContext(fixture.appSecret, NOW))).toBe("8f3c2a1b-6d5e-4f70-9a8b-7c6d5e4f3a2b");
    expect(jira.event!(req, JSON.parse(fixture.body))).toBe("jira:issue_created");
  });
});
