import { describe, expect, test } from "bun:test";
import { pluginContext, type HandshakeResult } from "../../src/plugins/index.ts";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

// The handshake secret from Asana's "Establish a webhook" docs.
const HOOK_SECRET = "b537207f20cbfa02357cf448134da559e8bd39d61597dcd5631b8012eae53e81";
const handshakeRequest = (extra: Record<string, string> = {}) => requestOf({ headers: { "x-hook-secret": HOOK_SECRET, ...extra } });
const asObject = (result: HandshakeResult) => result as { response: Response; adoptSecret?: string };

describe("asana: signature", () => {
  bodyHmacCases(plugin, fixture, { header: "X-Hook-Signature", algorithm: "sha256", encoding: "hex" });

  test("fixed vector: bare hex HMAC-SHA256 of the body, keyed by the adopted X-Hook-Secret", async () => {
    const req = requestOf({
      headers: { "x-hook-signature": "9b898eeeb7b8d2d4a163441f879674f7f66d02a1c0b21d06e06dd6f4dee18c99" },
      body: '{"events":[]}',
    });
    expect(await accepted(plugin, req, "asana_hook_secret", new Date())).toBe(true);
    expect(plugin.event(req, { events: [] })).toBe("heartbeat");
  });
});

describe("asana: handshake (trust on first use)", () => {
  test("the first POST echoes X-Hook-Secret and adopts it", async () => {
    expect(await accepted(plugin, handshakeRequest(), "", new Date())).toBe(true);
    const result = asObject(await plugin.handshake(handshakeRequest(), pluginContext("", new Date())));
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get("x-hook-secret")).toBe(HOOK_SECRET);
    expect(result.adoptSecret).toBe(HOOK_SECRET);
  });

  test("a new handshake for a trigger that already has another secret is refused", async () => {
    expect(await accepted(plugin, handshakeRequest(), "an-adopted-secret", new Date())).toBe(false);
    expect(await plugin.handshake(handshakeRequest(), pluginContext("an-adopted-secret", new Date()))).toBeNull();
    // The same secret again (a retried handshake) is fine.
    expect(await accepted(plugin, handshakeRequest(), HOOK_SECRET, new Date())).toBe(true);
  });

  test("nothing else gets through unsigned", async () => {
    const unsigned = [
      requestOf({ body: fixture.body }),
      requestOf({ headers: { "x-hook-secret": "" }, body: fixture.body }),
      handshakeRequest({ "x-hook-signature": "00" }),
      { ...handshakeRequest(), method: "GET" },
    ];
    for (const req of unsigned) {
      expect(await accepted(plugin, req, "", new Date())).toBe(false);
      expect(await plugin.handshake(req, pluginContext("", new Date()))).toBeNull();
    }
  });

  test("X-Hook-Secret is a credential: kept out of $trigger", () => {
    expect(plugin.credentialHeaders).toEqual(["x-hook-signature", "x-hook-secret"]);
  });
});

describe("asana: events and dedup", () => {
  test("event: distinct resource_type.action of the batch; heartbeat when empty", () => {
    const batch = {
      events: [
        { action: "changed", resource: { resource_type: "task" } },
        { action: "added", resource: { resource_type: "story" } },
        { action: "changed", resource: { resource_type: "task" } },
      ],
    };
    expect(plugin.event(requestOf(), batch)).toBe("task.changed,story.added");
    expect(plugin.event(requestOf(), { events: [] })).toBe("heartbeat");
    expect(plugin.event(requestOf(), {})).toBeNull();
  });

  test("no delivery id: bodies are remembered across Asana's 24 hours of retries", () => {
    expect("deliveryId" in plugin).toBe(false);
    expect(plugin.contentDedupWindowSeconds).toBeGreaterThanOrEqual(86400);
  });
});
