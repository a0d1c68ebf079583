/**
 * Square: HMAC-SHA256 of the notification URL (exactly as registered) followed by the raw body,
 * base64, in `x-square-hmacsha256-signature` (`square` SDK `WebhooksHelper`). Register inlet's
 * trigger URL exactly as `--base-url` builds it: `req.url` is what gets signed.
 *
 * The legacy SHA-1 `x-square-signature` is not checked, only removed from `$trigger`.
 */
import { concatBytes, definePlugin, hmacRecipe, parseJson, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "square",
  name: "Square",
  secret: { label: "Subscription signature key", generated: false },
  ...hmacRecipe({
    header: "x-square-hmacsha256-signature",
    algorithm: "sha256",
    encoding: "base64",
    signedContent: (req) => concatBytes(req.url, req.rawBody),
    alsoCredentialHeaders: ["x-square-signature"],
  }),
  // event_id is Square's idempotency value, the same on every retry; retries last up to 72 h.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "event_id"),
  dedupWindowSeconds: 259200,
  // `payment.created`, `order.updated`…
  event: (_req, body) => stringAt(body, "type"),
});
