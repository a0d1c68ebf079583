/**
 * Intercom: `X-Hub-Signature: sha1=<hex HMAC-SHA1 of the raw body>`, keyed by the app's client
 * secret. The `ping` topic sent when a webhook is set up is signed like any notification and
 * needs only a normal 200, so there is no handshake.
 */
import { definePlugin, hmacRecipe, parseJson, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "intercom",
  name: "Intercom",
  secret: { label: "App client secret", generated: false },
  ...hmacRecipe({ header: "X-Hub-Signature", algorithm: "sha1", encoding: "hex", prefix: "sha1=" }),
  // The notification id (`notif_…`) travels with `delivery_attempts`/`first_sent_at`, i.e. it is
  // kept across Intercom's re-sends; a day covers them.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "id"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => stringAt(body, "topic"),
});
