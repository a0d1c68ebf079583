/**
 * Shopify: HMAC-SHA256 of the raw body, base64, no prefix, keyed by the app's client secret, in
 * `X-Shopify-Hmac-Sha256` (the newer Events delivery drops the `X-` prefix; both are read).
 */
import { cannotSign, definePlugin } from "../../src/plugins/index.ts";

/** The first header present among `names`, or `null`. */
function header(headers: Headers, ...names: string[]): string | null {
  for (const name of names) {
    const value = headers.get(name);
    if (value) return value;
  }
  return null;
}

const SIGNATURE = ["x-shopify-hmac-sha256", "shopify-hmac-sha256"];

export default definePlugin({
  id: "shopify",
  name: "Shopify",
  secret: { label: "App client secret (API secret key)", generated: false },
  verify(req, ctx) {
    const given = header(req.headers, ...SIGNATURE);
    if (!given || !ctx.secret) return false;
    return ctx.timingSafeEqual(given.trim(), ctx.hmac("sha256", ctx.secret, req.rawBody, "base64"));
  },
  sign(req, ctx) {
    if (!ctx.secret) throw cannotSign("the Shopify client secret is empty");
    return { headers: { "X-Shopify-Hmac-Sha256": ctx.hmac("sha256", ctx.secret, req.rawBody, "base64") } };
  },
  credentialHeaders: SIGNATURE,
  // Shopify's docs: the same X-Shopify-Event-Id on several webhooks means a duplicate. Retries
  // (8 over 4 h) resend the original payload. Older deliveries only carry X-Shopify-Webhook-Id,
  // which retries keep as well.
  deliveryId: (req) => header(req.headers, "x-shopify-event-id", "shopify-event-id", "x-shopify-webhook-id", "shopify-webhook-id"),
  dedupWindowSeconds: 86400,
  // `orders/create`, `app/uninstalled`…
  event: (req) => header(req.headers, "x-shopify-topic", "shopify-topic"),
});
