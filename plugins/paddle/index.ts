/**
 * Paddle Billing: `Paddle-Signature: ts=<unix>;h1=<hex>`, `h1` an HMAC-SHA256 of `${ts}:${body}`
 * keyed by the whole notification-destination secret (`pdl_ntfset_…`) as UTF-8
 * (`@paddle/paddle-node-sdk`). Several `h1` entries are accepted for secret rotation.
 * Paddle Classic (`p_signature`, RSA) is a different product and not handled.
 */
import { definePlugin, parseJson, signedTimestampRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "paddle",
  name: "Paddle",
  secret: { label: "Notification destination secret key (pdl_ntfset_…)", generated: false },
  ...signedTimestampRecipe({
    header: "Paddle-Signature",
    list: { separator: ";", timestampKey: "ts", signatureKey: "h1" },
    layout: "{timestamp}:{body}",
    signature: { hmac: "sha256", encoding: "hex" },
    // The Paddle SDK and docs allow 5 s (`now > ts + 5` is invalid). Tight, but it is Paddle's
    // own number and each retry is signed afresh; a host whose clock drifts will see 401s.
    toleranceSeconds: 5,
  }),
  // event_id (`evt_…`) names the event on every delivery of it, retries and replays included;
  // live retries run for up to 3 days.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "event_id"),
  dedupWindowSeconds: 259200,
  // `transaction.completed`, `subscription.updated`…
  event: (_req, body) => stringAt(body, "event_type"),
});
