import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { pluginContext, type PluginRequest, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import mailgunPlugin from "./index.ts";

const mailgun: InletPlugin = mailgunPlugin;

const NOW = new Date(1_750_000_000_000);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The fixture signed at `at`: Mailgun's signature rides in the body, so sign() returns one. */
async function signed(at: Date, body = fixture.body, contentType = "application/json"): Promise<PluginRequest> {
  const req = requestOf({ body, headers: { "content-type": contentType } });
  const out = await mailgun.sign!(req, pluginContext(fixture.appSecret, at));
  expect(out.headers).toEqual({});
  return { ...req, rawBody: out.rawBody! };
}

const bodyOf = (req: PluginRequest) => JSON.parse(decoder.decode(req.rawBody));
const withBody = (req: PluginRequest, body: unknown): PluginRequest => ({ ...req, rawBody: encoder.encode(JSON.stringify(body)) });

describe("mailgun plugin", () => {
  test("verifies the signature block of the fixture, HMAC-SHA256(key, timestamp + token)", async () => {
    const block = JSON.parse(fixture.body).signature;
    expect(
      createHmac("sha256", fixture.appSecret)
        .update(block.timestamp + block.token)
        .digest("hex"),
    ).toBe(block.signature);
    expect(await accepted(mailgun, requestOf({ body: fixture.body, headers: { "content-type": "application/json" } }), fixture.appSecret, NOW)).toBe(true);
  });

  test("signs by writing a fresh signature block into the body", async () => {
    const req = await signed(NOW);
    const { signature, "event-data": eventData } = bodyOf(req);
    expect(signature.timestamp).toBe("1750000000");
    expect(signature.token).toMatch(/^[0-9a-f]{50}$/);
    expect(signature.signature).toBe(
      createHmac("sha256", fixture.appSecret)
        .update(signature.timestamp + signature.token)
        .digest("hex"),
    );
    expect(eventData).toEqual(JSON.parse(fixture.body)["event-data"]);
    expect(await accepted(mailgun, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("fails on a changed, missing or mismatched signature block", async () => {
    const req = await signed(NOW);
    const body = bodyOf(req);
    const cases = [
      { ...body, signature: { ...body.signature, token: body.signature.token.replace(/.$/, "x") } },
      { ...body, signature: { ...body.signature, timestamp: "1750000001" } },
      { ...body, signature: { ...body.signature, signature: body.signature.signature.slice(0, 63) } },
      { ...body, signature: { ...body.signature, signature: undefined } },
      { ...body, signature: "garbage" },
      { "event-data": body["event-data"] },
    ];
    for (const broken of cases) expect(await accepted(mailgun, withBody(req, broken), fixture.appSecret, NOW)).toBe(false);
    expect(await accepted(mailgun, req, "key-another", NOW)).toBe(false);
  });

  test("does not sign the event data (the fixture declares signsBody: false)", async () => {
    const req = await signed(NOW);
    const body = bodyOf(req);
    const forged = withBody(req, { ...body, "event-data": { ...body["event-data"], event: "failed" } });
    expect(await accepted(mailgun, forged, fixture.appSecret, NOW)).toBe(true);
    expect(fixture.signsBody).toBe(false);
  });

  test("accepts a subaccount event by its parent-signature", async () => {
    const req = await signed(NOW);
    const body = bodyOf(req);
    const parentKey = "key-parent-account";
    const parent = createHmac("sha256", parentKey)
      .update(body.signature.timestamp + body.signature.token)
      .digest("hex");
    const sub = withBody(req, { ...body, signature: { ...body.signature, "parent-signature": parent } });
    expect(await accepted(mailgun, sub, parentKey, NOW)).toBe(true);
    expect(await accepted(mailgun, sub, fixture.appSecret, NOW)).toBe(true);
  });

  test("reads the timestamp from the body, with a tolerance covering Mailgun's 8 h of retries", async () => {
    expect(mailgun.toleranceSeconds).toBe(32400);
    const fourHoursLate = await signed(new Date(NOW.getTime() - 4 * 3600_000));
    expect(mailgun.timestamp!(fourHoursLate, pluginContext(fixture.appSecret, NOW))).toBe(1_750_000_000 - 4 * 3600);
    expect(await accepted(mailgun, fourHoursLate, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(mailgun, await signed(new Date(NOW.getTime() - 32405_000)), fixture.appSecret, NOW)).toBe(false);
    const numeric = bodyOf(fourHoursLate);
    const numericTimestamp = withBody(fourHoursLate, { ...numeric, signature: { ...numeric.signature, timestamp: 1749985600 } });
    expect(mailgun.timestamp!(numericTimestamp, pluginContext(fixture.appSecret, NOW))).toBe(1749985600);
  });

  test("verifies a legacy form post with timestamp, token and signature fields", async () => {
    const form = new URLSearchParams({ event: "delivered", recipient: "ada@example.com", "Message-Id": "<20250615142639.1@mg.acme.example>" }).toString();
    const req = await signed(NOW, form, "application/x-www-form-urlencoded");
    expect(new URLSearchParams(decoder.decode(req.rawBody)).get("timestamp")).toBe("1750000000");
    expect(await accepted(mailgun, req, fixture.appSecret, NOW)).toBe(true);
    expect(mailgun.event!(req, Object.fromEntries(new URLSearchParams(decoder.decode(req.rawBody))))).toBe("delivered");
  });

  test("dedups by event-data.id, which a retry keeps", async () => {
    const first = await signed(NOW);
    const retry = await signed(new Date(NOW.getTime() + 600_000));
    expect(bodyOf(retry).signature.token).not.toBe(bodyOf(first).signature.token);
    const ctx = pluginContext(fixture.appSecret, NOW);
    expect(mailgun.deliveryId!(retry, ctx)).toBe("CPgfbmQMTCKtHW6uIWtuVe");
    expect(mailgun.deliveryId!(first, ctx)).toBe("CPgfbmQMTCKtHW6uIWtuVe");
    expect(mailgun.event!(first, bodyOf(first))).toBe("delivered");
    expect(mailgun.credentialHeaders).toEqual([]);
  });
});
