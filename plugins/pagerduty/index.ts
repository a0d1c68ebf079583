/**
 * PagerDuty v3 webhooks: HMAC-SHA256 of the raw body, hex, in `X-PagerDuty-Signature` as a
 * comma-separated list of `v1=<hex>` (several while a subscription's secret is rotated; any
 * match passes).
 */
import { definePlugin, hmacRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "pagerduty",
  name: "PagerDuty",
  secret: { label: "Webhook subscription secret", generated: false },
  ...hmacRecipe({ header: "X-PagerDuty-Signature", algorithm: "sha256", encoding: "hex", prefix: "v1=", separator: "," }),
  // "Unique to the webhook but repeated for each delivery attempt" (PagerDuty developer docs).
  deliveryId: (req) => req.headers.get("x-webhook-id") || null,
  dedupWindowSeconds: 86400,
  // `incident.triggered`, `incident.resolved`…
  event: (_req, body) => stringAt(body, "event", "event_type"),
});
