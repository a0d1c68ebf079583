import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, withHeaders } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import paddlePlugin from "./index.ts";

const paddle: InletPlugin = paddlePlugin;

const NOW = new Date(1_750_000_000_000);
const h1 = (secret: string, ts: string) => createHmac("sha256", secret).update(`${ts}:${fixture.body}`).digest("hex");

describe("paddle plugin", () => {
  test("signs ts=<unix>;h1=HMAC-SHA256(key, ts:body) with the whole pdl_ntfset_ key", async () => {
    const req = await signedFixture(paddle, fixture, NOW);
    expect(req.headers.get("paddle-signature")).toBe(`ts=1750000000;h1=${h1(fixture.appSecret, "1750000000")}`);
    expect(await accepted(paddle, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("accepts several h1 entries (secret rotation)", async () => {
    const header = `ts=1750000000;h1=${h1("pdl_ntfset_old", "1750000000")};h1=${h1(fixture.appSecret, "1750000000")}`;
    const req = requestOf({ body: fixture.body, headers: { "paddle-signature": header } });
    expect(await accepted(paddle, req, fixture.appSecret, NOW)).toBe(true);
    expect(await accepted(paddle, withHeaders(req, { "paddle-signature": header.replaceAll("h1=", "h2=") }), fixture.appSecret, NOW)).toBe(false);
  });

  test("keeps Paddle's 5 s window", async () => {
    expect(paddle.toleranceSeconds).toBe(5);
    const late = await signedFixture(paddle, fixture, new Date(NOW.getTime() - 6000));
    expect(await accepted(paddle, late, fixture.appSecret, NOW)).toBe(false);
    const justInTime = await signedFixture(paddle, fixture, new Date(NOW.getTime() - 5000));
    expect(await accepted(paddle, justInTime, fixture.appSecret, NOW)).toBe(true);
  });

  test("dedups by event_id and names the event_type", async () => {
    const req = await signedFixture(paddle, fixture, NOW);
    expect(paddle.deliveryId!(req, pluginContext(fixture.appSecret, NOW))).toBe("evt_01hv8x2acma2gz3we6bv9x8c7q");
    expect(paddle.event!(req, JSON.parse(fixture.body))).toBe("transaction.completed");
  });
});
