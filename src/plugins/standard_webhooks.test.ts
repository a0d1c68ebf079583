import { expect, test } from "bun:test";
import { pluginContext } from "./context.ts";
import { standardWebhooksKey, standardWebhooksRecipe } from "./standard_webhooks.ts";

// The Standard Webhooks specification's own example (also the svix libraries' test vector).
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';
const SIGNATURE = "g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

const request = (prefix: string, signatures: string) => ({
  method: "POST",
  url: "https://hooks.example.com/webhooks/t",
  headers: new Headers({ [`${prefix}id`]: ID, [`${prefix}timestamp`]: String(TIMESTAMP), [`${prefix}signature`]: signatures }),
  rawBody: new TextEncoder().encode(BODY),
});
const ctx = pluginContext(SECRET, new Date(TIMESTAMP * 1000));

test("the specification's example verifies under either header prefix; any v1 entry of the list may match", async () => {
  const recipe = standardWebhooksRecipe({ prefixes: ["svix-", "webhook-"], secret: "standard" });
  expect(await recipe.verify(request("webhook-", `v1,${SIGNATURE}`), ctx)).toBe(true);
  expect(await recipe.verify(request("svix-", `v1a,xyz v1,bm90IGl0 v1,${SIGNATURE}`), ctx)).toBe(true);
  expect(await recipe.verify(request("svix-", `v2,${SIGNATURE}`), ctx)).toBe(false);
  expect(await recipe.verify(request("svix-", `v1,${SIGNATURE}`), pluginContext("whsec_" + btoa("another key"), ctx.now))).toBe(false);
  expect(recipe.timestamp(request("svix-", ""), ctx)).toBe(TIMESTAMP);
  expect(recipe.deliveryId(request("webhook-", ""), ctx)).toBe(ID);
  expect(recipe.credentialHeaders).toEqual(["svix-signature", "webhook-signature"]);
});

test("sign() writes what verify() accepts, under the first prefix", async () => {
  const recipe = standardWebhooksRecipe({ prefixes: ["webhook-"], secret: "standard" });
  const signed = await recipe.sign(
    { method: "POST", url: "https://x", headers: new Headers({ "webhook-id": ID }), rawBody: new TextEncoder().encode(BODY) },
    ctx,
  );
  expect(signed.headers).toEqual({ "webhook-id": ID, "webhook-timestamp": String(TIMESTAMP), "webhook-signature": `v1,${SIGNATURE}` });
});

test("the key: whsec_ base64; without the prefix base64 or raw bytes (standard), raw bytes (openai); nothing for an empty or broken secret", () => {
  const base64 = pluginContext("", new Date());
  expect(standardWebhooksKey(SECRET, "standard", base64)).toEqual(Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64"));
  expect(standardWebhooksKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "openai", base64)).toEqual(new TextEncoder().encode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));
  expect(standardWebhooksKey("", "standard", base64)).toBeNull();
  expect(standardWebhooksKey("whsec_!!!", "standard", base64)).toBeNull();
  expect(() => standardWebhooksRecipe({ prefixes: [], secret: "standard" })).toThrow(TypeError);
});
