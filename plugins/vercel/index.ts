/**
 * Vercel: `x-vercel-signature: <hex HMAC-SHA1 of the raw body>`, keyed by the webhook secret
 * (the integration's client secret for integration webhooks).
 */
import { definePlugin, hmacRecipe, parseJson, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "vercel",
  name: "Vercel",
  secret: { label: "Webhook secret", generated: false },
  ...hmacRecipe({ header: "x-vercel-signature", algorithm: "sha1", encoding: "hex" }),
  // The event id is in the body and does not change when Vercel re-sends it.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "id"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => stringAt(body, "type"),
});
