/**
 * Bitbucket (Cloud and Data Center): HMAC-SHA256 of the raw body, hex, in `X-Hub-Signature` as
 * `sha256=<hex>`; sent only when the webhook has a secret.
 */
import { definePlugin, hmacRecipe } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "bitbucket",
  name: "Bitbucket",
  secret: { label: "Webhook secret", generated: false },
  ...hmacRecipe({ header: "X-Hub-Signature", algorithm: "sha256", encoding: "hex", prefix: "sha256=" }),
  // Cloud: X-Request-UUID names the event request and X-Attempt-Number counts its attempts (a 5xx
  // is resent up to twice). Data Center sends X-Request-Id instead.
  deliveryId: (req) => req.headers.get("x-request-uuid") || req.headers.get("x-request-id") || null,
  dedupWindowSeconds: 86400,
  // `repo:push`, `pullrequest:created`…
  event: (req) => req.headers.get("x-event-key") || null,
});
