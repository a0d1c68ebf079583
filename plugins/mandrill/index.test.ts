import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { pluginContext, type InletPlugin } from "../../src/plugins/index.ts";
import { accepted, requestOf, signedFixture, TRIGGER_URL } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import mandrillPlugin from "./index.ts";

const mandrill: InletPlugin = mandrillPlugin;

const NOW = new Date(1_750_000_000_000);
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** Mandrill's documented algorithm: URL, then each POST key and value sorted by key, HMAC-SHA1, base64. */
function documented(key: string, url: string, params: Record<string, string>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) data += name + params[name];
  return createHmac("sha1", key).update(data).digest("base64");
}

describe("mandrill plugin", () => {
  test("signs as Mandrill documents: URL + sorted key/value pairs, HMAC-SHA1, base64", async () => {
    const req = await signedFixture(mandrill, fixture, NOW);
    const expected = documented(fixture.appSecret, TRIGGER_URL, { mandrill_events: new URLSearchParams(fixture.body).get("mandrill_events")! });
    expect(req.headers.get("x-mandrill-signature")).toBe(expected);
    expect(await accepted(mandrill, req, fixture.appSecret, NOW)).toBe(true);
  });

  test("covers every parameter and the exact registered URL", async () => {
    const params = { mandrill_events: "[]", b: "2", a: "1" };
    const url = "https://hooks.example.com/mandrill?source=prod";
    const req = requestOf({ url, headers: { ...FORM, "x-mandrill-signature": documented("k3y", url, params) }, body: new URLSearchParams(params).toString() });
    expect(await accepted(mandrill, req, "k3y", NOW)).toBe(true);
    expect(await accepted(mandrill, { ...req, url: url + "&x=1" }, "k3y", NOW)).toBe(false);
    expect(await accepted(mandrill, { ...req, url: url.replace("?source=prod", "") }, "k3y", NOW)).toBe(false);
  });

  test("answers the HEAD request that checks a new webhook's URL", async () => {
    const response = (await mandrill.handshake!(requestOf({ method: "HEAD" }), pluginContext(fixture.appSecret, NOW))) as Response;
    expect(response.status).toBe(200);
    expect(await mandrill.handshake!(requestOf({ method: "POST" }), pluginContext(fixture.appSecret, NOW))).toBeNull();
  });

  test("names the batch's events and dedups it by content", async () => {
    const req = await signedFixture(mandrill, fixture, NOW);
    expect(mandrill.event!(req, Object.fromEntries(new URLSearchParams(fixture.body)))).toBe("send,open");
    expect(mandrill.event!(req, null)).toBe("send,open");
    expect(mandrill.event!(requestOf({ body: "mandrill_events=%5B%7B%22type%22%3A%22blacklist%22%7D%5D" }), null)).toBe("blacklist");
    expect(mandrill.event!(requestOf({ body: "mandrill_events=%5B%5D" }), null)).toBeNull();
    expect("deliveryId" in mandrill).toBe(false);
    expect(mandrill.contentDedupWindowSeconds).toBe(86400);
  });
});
