/**
 * Calendly: `Calendly-Webhook-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "{t}.{raw body}">`,
 * keyed by the webhook signing key.
 */
import { definePlugin, signedTimestampRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "calendly",
  name: "Calendly",
  secret: { label: "Webhook signing key", generated: false },
  ...signedTimestampRecipe({
    header: "Calendly-Webhook-Signature",
    list: { separator: ",", timestampKey: "t", signatureKey: "v1" },
    layout: "{timestamp}.{body}",
    signature: { hmac: "sha256", encoding: "hex" },
    // Calendly's own verification example rejects signatures older than three minutes.
    toleranceSeconds: 180,
  }),
  // No delivery id. A retry repeats the body, whose `created_at` and `payload.uri` make two real
  // events differ; Calendly retries with back-off for 24 hours, so remember bodies 25 hours.
  contentDedupWindowSeconds: 90000,
  event: (_req, body) => stringAt(body, "event"),
});
