/**
 * Sentry integration platform: `Sentry-Hook-Signature: <hex HMAC-SHA256 of the raw body>`,
 * keyed by the integration's client secret. Sentry's docs example hashes `JSON.stringify` of the
 * parsed body; Sentry sends the very bytes it signed, so the raw body is used.
 *
 * `Sentry-Hook-Timestamp` is not covered by the signature, so no tolerance is declared: a
 * timestamp anyone can change protects nothing.
 */
import { definePlugin, hmacRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "sentry",
  name: "Sentry",
  secret: { label: "Integration client secret", generated: false },
  ...hmacRecipe({ header: "Sentry-Hook-Signature", algorithm: "sha256", encoding: "hex" }),
  deliveryId: (req) => req.headers.get("request-id") || null,
  dedupWindowSeconds: 86400,
  // `Sentry-Hook-Resource` (issue, error, installation, event_alert…) with the body's action: `issue.created`.
  event(req, body) {
    const resource = req.headers.get("sentry-hook-resource") || null;
    const action = stringAt(body, "action");
    if (resource === null) return action;
    return action === null ? resource : `${resource}.${action}`;
  },
});
