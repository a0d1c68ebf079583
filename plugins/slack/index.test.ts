import { describe, expect, test } from "bun:test";
import { handshakeAnswer, pluginContext } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import slack from "./index.ts";

const NOW = new Date(1_750_000_000_000);
const at = (unix: number) => new Date(unix * 1000);

// Slack's "Verifying requests from Slack" example: a slash command.
const DOCS_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const DOCS_BODY =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";

describe("slack plugin", () => {
  test("reproduces the vector of Slack's docs", async () => {
    const req = requestOf({ body: DOCS_BODY, headers: { "content-type": "application/x-www-form-urlencoded" } });
    const signed = await slack.sign!(req, pluginContext(DOCS_SECRET, at(1531420618)));
    expect(signed.headers).toEqual({
      "X-Slack-Request-Timestamp": "1531420618",
      "X-Slack-Signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    });
    expect(await accepted(slack, withHeaders(req, signed.headers), DOCS_SECRET, at(1531420618))).toBe(true);
    expect(slack.event!(req, Object.fromEntries(new URLSearchParams(DOCS_BODY)))).toBe("/webhook-collect");
  });

  // docs/plugins.md#test-vectors: self-generated, checked with @slack/bolt isValidSlackRequest.
  test("reproduces the Bolt-checked vector", async () => {
    const signed = await slack.sign!(requestOf({ body: '{"id":"evt_1","type":"test"}' }), pluginContext("slack_signing_secret", at(1700000000)));
    expect(signed.headers["X-Slack-Signature"]).toBe("v0=09bf626f3c5407272e9d085722269cd551ee02c825c4a67ae4b3fe5eebb85ccc");
  });

  test("rejects requests older than Bolt's five minutes", async () => {
    expect(slack.toleranceSeconds).toBe(300);
    const old = await signedFixture(slack, fixture, new Date(NOW.getTime() - 301_000));
    expect(await accepted(slack, old, fixture.appSecret, NOW)).toBe(false);
  });

  test("dedups Events API retries by event_id", async () => {
    const first = await signedFixture(slack, fixture, NOW);
    const retry = withHeaders(await signedFixture(slack, fixture, new Date(NOW.getTime() + 60_000)), {
      "x-slack-retry-num": "1",
      "x-slack-retry-reason": "http_timeout",
    });
    const ctx = pluginContext(fixture.appSecret, NOW);
    expect(slack.deliveryId!(retry, ctx)).toBe(slack.deliveryId!(first, ctx));
    expect(slack.deliveryId!(first, ctx)).toBe("Ev0PV52K25");
    expect(slack.event!(first, JSON.parse(fixture.body))).toBe("app_mention");
  });

  test("names interactivity payloads by their type", () => {
    const payload = JSON.stringify({ type: "block_actions", actions: [{ action_id: "approve" }] });
    expect(slack.event!(requestOf(), { payload })).toBe("block_actions");
    expect(slack.event!(requestOf(), { payload: "{" })).toBeNull();
  });

  describe("url_verification", () => {
    const body = JSON.stringify({
      token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
      type: "url_verification",
    });
    const handshakeFixture = { ...fixture, body };

    test("answers the challenge once the request authenticates", async () => {
      const req = await signedFixture(slack, handshakeFixture, NOW);
      const response = (await handshakeAnswer(slack, req, pluginContext(fixture.appSecret, NOW))) as Response;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    });

    test("does not answer a forged or stale challenge", async () => {
      const req = await signedFixture(slack, handshakeFixture, NOW);
      expect(await handshakeAnswer(slack, req, pluginContext("another-secret", NOW))).toBeNull();
      expect(await handshakeAnswer(slack, withHeaders(req, { "x-slack-signature": null }), pluginContext(fixture.appSecret, NOW))).toBeNull();
      expect(await handshakeAnswer(slack, req, pluginContext(fixture.appSecret, new Date(NOW.getTime() + 301_000)))).toBeNull();
    });
  });
});
