/**
 * Linear: `Linear-Signature: <hex HMAC-SHA256 of the raw body>`. The signed timestamp is the
 * body's `webhookTimestamp` (milliseconds), which `@linear/sdk` checks to within 60 s; the
 * `Linear-Timestamp` header is not covered by the signature, so it is not used.
 */
import { definePlugin, hmacRecipe, parseJson, type Signed, stringAt, valueAt } from "../../src/plugins/index.ts";

const recipe = hmacRecipe({ header: "Linear-Signature", algorithm: "sha256", encoding: "hex" });
const encoder = new TextEncoder();

export default definePlugin({
  id: "linear",
  name: "Linear",
  secret: { label: "Webhook signing secret", generated: false },
  verify: recipe.verify,
  credentialHeaders: recipe.credentialHeaders,
  /**
   * Like Linear, stamps `webhookTimestamp` with the sending time before signing (a JSON object
   * body only; its other bytes are kept when the body is compact JSON, as Linear sends it).
   */
  async sign(req, ctx): Promise<Signed> {
    const body = parseJson(req.rawBody);
    let rawBody = req.rawBody;
    if (body !== null && typeof body === "object" && !Array.isArray(body)) {
      rawBody = encoder.encode(JSON.stringify({ ...body, webhookTimestamp: ctx.now.getTime() }));
    }
    const signed = await recipe.sign({ ...req, rawBody }, ctx);
    return rawBody === req.rawBody ? signed : { ...signed, rawBody };
  },
  timestamp(req) {
    const ms = valueAt(parseJson(req.rawBody), "webhookTimestamp");
    return typeof ms === "number" && Number.isFinite(ms) ? ms / 1000 : null;
  },
  // What LinearWebhookClient enforces. Each retry is a fresh send with a fresh webhookTimestamp.
  toleranceSeconds: 60,
  // `Linear-Delivery` (a UUID per delivery); Linear retries after 1 min, 1 h and 6 h.
  deliveryId: (req) => req.headers.get("linear-delivery") || null,
  dedupWindowSeconds: 86400,
  // `Issue.create`, `Comment.update`…: the entity type and the action, as Linear names them.
  event(_req, body) {
    const type = stringAt(body, "type");
    const action = stringAt(body, "action");
    if (type === null) return action;
    return action === null ? type : `${type}.${action}`;
  },
});
