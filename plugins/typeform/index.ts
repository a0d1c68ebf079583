/**
 * Typeform: `Typeform-Signature: sha256=<base64 HMAC-SHA256 of the raw body>`, keyed by the
 * secret set on the webhook. Inlet generates it; paste it into the webhook's "Secret" field.
 */
import { definePlugin, hmacRecipe, parseJson, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "typeform",
  name: "Typeform",
  secret: { label: "Webhook secret", generated: true },
  ...hmacRecipe({ header: "Typeform-Signature", algorithm: "sha256", encoding: "base64", prefix: "sha256=" }),
  // `event_id` is the same on every retry of a response; Typeform retries for several hours.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "event_id"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => stringAt(body, "event_type"),
});
