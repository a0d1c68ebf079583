import { expect, test } from "bun:test";
import { pluginContext } from "./context.ts";
import { trustOnFirstUse } from "./trust_on_first_use.ts";
import type { PluginRequest } from "./types.ts";

const NOW = new Date();
const req = (headers: Record<string, string>, method = "POST"): PluginRequest => ({
  method,
  url: "https://x/webhooks/t",
  headers: new Headers(headers),
  rawBody: new Uint8Array(),
});
const tofu = trustOnFirstUse({
  offeredSecret: (r) => (r.headers.has("x-sig") ? null : r.headers.get("x-offer")),
  reply: (secret) => new Response(secret),
  verify: (r, ctx) => r.headers.get("x-sig") === `signed-with-${ctx.secret}`,
});

test("the offered secret passes unsigned and is adopted only while the trigger has none", async () => {
  expect(tofu.verify(req({ "x-offer": "s1" }), pluginContext("", NOW))).toBe(true);
  const answer = tofu.handshake(req({ "x-offer": "s1" }), pluginContext("", NOW)) as { response: Response; adoptSecret: string };
  expect([answer.adoptSecret, await answer.response.text()]).toEqual(["s1", "s1"]);
  // A retried set-up with the same secret is answered again; another secret is refused.
  expect(tofu.verify(req({ "x-offer": "s1" }), pluginContext("s1", NOW))).toBe(true);
  expect(tofu.verify(req({ "x-offer": "s2" }), pluginContext("s1", NOW))).toBe(false);
  expect(tofu.handshake(req({ "x-offer": "s2" }), pluginContext("s1", NOW))).toBeNull();
});

test("signed requests go to the recipe; GET, HEAD and empty offers are no set-up", () => {
  expect(tofu.verify(req({ "x-sig": "signed-with-s1" }), pluginContext("s1", NOW))).toBe(true);
  expect(tofu.verify(req({ "x-sig": "forged" }), pluginContext("s1", NOW))).toBe(false);
  expect(tofu.handshake(req({ "x-sig": "signed-with-s1" }), pluginContext("s1", NOW))).toBeNull();
  for (const method of ["GET", "HEAD"]) expect(tofu.handshake(req({ "x-offer": "s1" }, method), pluginContext("", NOW))).toBeNull();
  expect(tofu.handshake(req({ "x-offer": "" }), pluginContext("", NOW))).toBeNull();
});

test("armed (ctx.armed), another secret gets through to the handshake: a new set-up replaces the adopted one", () => {
  const armed = pluginContext("s1", NOW, true);
  expect(tofu.verify(req({ "x-offer": "s2" }), armed)).toBe(true);
  expect((tofu.handshake(req({ "x-offer": "s2" }), armed) as { adoptSecret: string }).adoptSecret).toBe("s2");
  // Signed requests are judged by the recipe alone, armed or not.
  expect(tofu.verify(req({ "x-sig": "forged" }), armed)).toBe(false);
  expect(tofu.adoptsSecret).toBe(true);
});
