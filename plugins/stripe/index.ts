/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, each `v1` an HMAC-SHA256 of
 * `${t}.${body}` keyed by the whole `whsec_…` string as UTF-8 (stripe-node `Webhooks`). Several
 * `v1` entries arrive while a secret is rolled; any match passes. `v0` (test-mode legacy) is
 * ignored, as the SDK does.
 */
import { definePlugin, parseJson, signedTimestampRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "stripe",
  name: "Stripe",
  secret: { label: "Endpoint signing secret (whsec_…)", generated: false },
  ...signedTimestampRecipe({
    header: "Stripe-Signature",
    list: { separator: ",", timestampKey: "t", signatureKey: "v1" },
    layout: "{timestamp}.{body}",
    signature: { hmac: "sha256", encoding: "hex" },
    // stripe-node's DEFAULT_TOLERANCE; every retry is signed afresh with a new `t`.
    toleranceSeconds: 300,
  }),
  // The event id (`evt_…`) is the same on every retry; live mode retries for up to 3 days.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "id"),
  dedupWindowSeconds: 259200,
  // `payment_intent.succeeded`, `invoice.paid`…
  event: (_req, body) => stringAt(body, "type"),
});
