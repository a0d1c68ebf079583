import { describe, expect, test } from "bun:test";
import { pluginContext, type HandshakeResult } from "../../src/plugins/index.ts";
import { bodyHmacCases } from "../_shared/recipe_cases.ts";
import { accepted, requestOf } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

const TOKEN = "secret_tMrlL1qK5vuQAh1b6cZGhFChZTSYJlce98V0pYn7yBl";
const verification = (extra: Record<string, string> = {}) => requestOf({ headers: extra, body: JSON.stringify({ verification_token: TOKEN }) });
const asObject = (result: HandshakeResult) => result as { response: Response; adoptSecret?: string };

describe("notion: signature", () => {
  bodyHmacCases(plugin, fixture, { header: "X-Notion-Signature", algorithm: "sha256", encoding: "hex", prefix: "sha256=" });

  test("fixed vector: sha256= hex HMAC-SHA256 of the body, keyed by the verification token", async () => {
    const req = requestOf({
      headers: { "x-notion-signature": "sha256=d0754cf55da01c380a114d112d089a77aa1dfa23b3f0c4d70e18891c2feb6649" },
      body: '{"type":"page.created"}',
    });
    expect(await accepted(plugin, req, "secret_notion_token", new Date())).toBe(true);
  });
});

describe("notion: verification request (trust on first use)", () => {
  test("the unsigned first request passes while the trigger has no secret, and its token is adopted", async () => {
    expect(await accepted(plugin, verification(), "", new Date())).toBe(true);
    const result = asObject(await plugin.handshake(verification(), pluginContext("", new Date())));
    expect(result.response.status).toBe(200);
    expect(result.adoptSecret).toBe(TOKEN);
  });

  test("Notion's resend of the adopted token is answered again", async () => {
    expect(await accepted(plugin, verification(), TOKEN, new Date())).toBe(true);
    expect(asObject(await plugin.handshake(verification(), pluginContext(TOKEN, new Date()))).response.status).toBe(200);
  });

  test("a different token for a trigger that already has a secret is refused", async () => {
    expect(await accepted(plugin, verification(), "secret_already_adopted", new Date())).toBe(false);
    expect(await plugin.handshake(verification(), pluginContext("secret_already_adopted", new Date()))).toBeNull();
  });

  test("nothing else gets through unsigned", async () => {
    const unsigned = [
      requestOf({ body: fixture.body }),
      requestOf({ body: '{"verification_token":42}' }),
      requestOf({ body: '{"verification_token":""}' }),
      requestOf({ body: "not json" }),
      requestOf({ method: "GET", body: JSON.stringify({ verification_token: TOKEN }) }),
      // With a signature header it is an event and must carry a valid signature.
      verification({ "x-notion-signature": "sha256=00" }),
    ];
    for (const req of unsigned) {
      expect(await accepted(plugin, req, "", new Date())).toBe(false);
      expect(await plugin.handshake(req, pluginContext("", new Date()))).toBeNull();
    }
  });

  test("signed events are not handshakes", async () => {
    const signed = await plugin.sign(requestOf({ body: fixture.body }), pluginContext(fixture.appSecret, new Date()));
    expect(await plugin.handshake(requestOf({ headers: signed.headers, body: fixture.body }), pluginContext(fixture.appSecret, new Date()))).toBeNull();
  });
});
