import { describe, expect, test } from "bun:test";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import mailchimpPlugin from "./index.ts";

const mailchimp: InletPlugin = mailchimpPlugin;

const NOW = new Date(1_750_000_000_000);

describe("mailchimp plugin", () => {
  test("needs no secret: the trigger URL is the credential", async () => {
    expect(mailchimp.secret).toEqual({ label: "None needed: the trigger URL is the credential", generated: false });
    expect(await accepted(mailchimp, requestOf({ body: fixture.body }), "", NOW)).toBe(true);
    expect(await mailchimp.sign!(requestOf(), pluginContext("", NOW))).toEqual({ headers: {} });
  });

  test("answers the GET Mailchimp sends when the webhook is saved", async () => {
    const response = (await mailchimp.handshake!(requestOf({ method: "GET" }), pluginContext("", NOW))) as Response;
    expect(response.status).toBe(200);
    expect(await mailchimp.handshake!(requestOf({ body: fixture.body }), pluginContext("", NOW))).toBeNull();
  });

  test("has no delivery id, so the host remembers each exact body for an hour", () => {
    expect("deliveryId" in mailchimp).toBe(false);
    expect(mailchimp.contentDedupWindowSeconds).toBe(3600);
  });

  test("names the event by the form's type field", () => {
    const req = requestOf({ body: fixture.body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(mailchimp.event!(req, Object.fromEntries(new URLSearchParams(fixture.body)))).toBe("subscribe");
    expect(mailchimp.event!(req, null)).toBe("subscribe");
    expect(mailchimp.event!(requestOf({ body: "type=cleaned&data%5Breason%5D=hard" }), "type=cleaned")).toBe("cleaned");
  });
});
