import { describe, expect, test } from "bun:test";
import type { InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import postmarkPlugin from "./index.ts";

const postmark: InletPlugin = postmarkPlugin;

const NOW = new Date(1_750_000_000_000);
const basic = (credentials: string) => "Basic " + Buffer.from(credentials).toString("base64");

describe("postmark plugin", () => {
  test("accepts the HTTP Basic credentials of the webhook URL", async () => {
    const req = await signedFixture(postmark, fixture, NOW);
    expect(req.headers.get("authorization")).toBe(basic(fixture.appSecret));
    expect(await accepted(postmark, req, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(postmark, withHeaders(req, { authorization: "basic  " + basic(fixture.appSecret).slice(6) }), fixture.appSecret, NOW)).toBe(true);
  });

  test("refuses other users, passwords, schemes and malformed credentials", async () => {
    const req = requestOf({ body: fixture.body });
    for (const authorization of [
      basic("postmark-hooks:wrong"),
      basic("other:Vq8s2Lx4Tz6Rk1"),
      basic(fixture.appSecret + "\n"),
      "Bearer " + Buffer.from(fixture.appSecret).toString("base64"),
      "Basic",
      "Basic !!!!",
      "Basic " + Buffer.from([0xff, 0xfe]).toString("base64"),
    ]) {
      expect(await accepted(postmark, withHeaders(req, { authorization }), fixture.appSecret, NOW)).toBe(false);
    }
  });

  test("keeps the Authorization header out of $trigger and dedups by content for 12 h", () => {
    expect(postmark.credentialHeaders).toEqual(["authorization"]);
    expect(postmark.contentDedupWindowSeconds).toBe(43200);
  });

  test("names the event by RecordType; inbound mail has none", () => {
    const req = requestOf({ body: fixture.body });
    expect(postmark.event!(req, JSON.parse(fixture.body))).toBe("Bounce");
    expect(postmark.event!(req, { FromFull: { Email: "ada@example.com" }, MessageStream: "inbound" })).toBe("Inbound");
    expect(postmark.event!(req, {})).toBeNull();
    expect("deliveryId" in postmark).toBe(false);
  });
});
