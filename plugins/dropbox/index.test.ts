import { describe, expect, test } from "bun:test";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf, TRIGGER_URL } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

const challenge = (method = "GET", value = "<script>alert(1)</script>") => requestOf({ method, url: `${TRIGGER_URL}?challenge=${encodeURIComponent(value)}` });

describe("dropbox: signature", () => {
  bodyHmacCases(plugin, fixture, { header: "X-Dropbox-Signature", algorithm: "sha256", encoding: "hex" });

  test("fixed vector: bare hex HMAC-SHA256 of the body, keyed by the app secret", async () => {
    const req = requestOf({
      headers: { "x-dropbox-signature": "0bcb10d84e09797c92be7cc8bb3f3c4282417e3a0bf46ecbc767dedb8b066e7d" },
      body: '{"list_folder":{"accounts":[]}}',
    });
    expect(await accepted(plugin, req, "dropbox_app_secret", new Date())).toBe(true);
  });
});

describe("dropbox: GET ?challenge=", () => {
  test("is echoed as text/plain with nosniff", async () => {
    expect(await accepted(plugin, challenge(), fixture.appSecret, new Date())).toBe(true);
    const response = (await plugin.handshake(challenge())) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("<script>alert(1)</script>");
  });

  test("HEAD gets the headers without a body", async () => {
    const response = (await plugin.handshake(challenge("HEAD"))) as Response;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });

  test("a POST with ?challenge= or a GET without one is not a handshake and needs a signature", async () => {
    for (const req of [challenge("POST"), requestOf({ method: "GET" }), challenge("GET", "")]) {
      expect(await accepted(plugin, req, fixture.appSecret, new Date())).toBe(false);
      expect(await plugin.handshake(req)).toBeNull();
    }
  });
});

describe("dropbox: dedup and event", () => {
  test("no delivery id: a short content window collapses re-sends without hiding later changes for long", () => {
    expect("deliveryId" in plugin).toBe(false);
    expect(plugin.contentDedupWindowSeconds).toBe(60);
  });

  test("event", () => {
    expect(plugin.event(requestOf(), JSON.parse(fixture.body))).toBe("list_folder");
    expect(plugin.event(requestOf(), {})).toBeNull();
  });
});
