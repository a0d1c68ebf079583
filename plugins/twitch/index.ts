/**
 * Twitch EventSub (webhook transport): `Twitch-Eventsub-Message-Signature: sha256=<hex
 * HMAC-SHA256 of message id + timestamp + raw body>` (no separators; the timestamp is the
 * RFC 3339 header string), keyed by the subscription's `secret`.
 *
 * Message types: `notification`; `webhook_callback_verification` (signed; answered with the raw
 * challenge as text/plain); `revocation` (an ordinary event).
 */
import { definePlugin, parseJson, type PluginContext, type PluginRequest, signedTimestampRecipe, stringAt } from "../../src/plugins/index.ts";

const ID = "twitch-eventsub-message-id";
const TIMESTAMP = "twitch-eventsub-message-timestamp";
const TYPE = "twitch-eventsub-message-type";
const VERIFICATION = "webhook_callback_verification";

const recipe = signedTimestampRecipe({
  header: "Twitch-Eventsub-Message-Signature",
  timestampHeader: TIMESTAMP,
  unit: "rfc3339",
  prefix: "sha256=",
  layout: `{header:${ID}}{timestamp}{body}`,
  signature: { hmac: "sha256", encoding: "hex" },
  // Twitch's docs: reject messages whose timestamp is more than 10 minutes old.
  toleranceSeconds: 600,
});

export default definePlugin({
  id: "twitch",
  name: "Twitch EventSub",
  // The subscriber chooses the secret (10–100 ASCII characters) when it creates the subscription.
  secret: { label: "Subscription secret", generated: true },
  ...recipe,
  // The message id is the same when Twitch resends a message.
  deliveryId: (req) => req.headers.get(ID) || null,
  dedupWindowSeconds: 86400,
  event(req, body) {
    const type = req.headers.get(TYPE);
    if (type !== null && type !== "notification") return type;
    return stringAt(body, "subscription", "type") ?? (req.headers.get("twitch-eventsub-subscription-type") || null);
  },
  async handshake(req: PluginRequest, ctx: PluginContext) {
    if (req.headers.get(TYPE) !== VERIFICATION) return null;
    // The host verifies first; this keeps an unsigned request from ever getting the echo.
    if (!(await recipe.verify(req, ctx))) return null;
    const challenge = stringAt(parseJson(req.rawBody), "challenge");
    if (challenge === null) return new Response("missing challenge", { status: 400, headers: { "content-type": "text/plain" } });
    return new Response(challenge, { status: 200, headers: { "content-type": "text/plain" } });
  },
  // The recipe signs over the message id, so the id (and the type) are set before it signs.
  async sign(req, ctx) {
    const headers = new Headers(req.headers);
    const added: Record<string, string> = {
      [ID]: req.headers.get(ID) || crypto.randomUUID(),
      [TYPE]: req.headers.get(TYPE) || "notification",
    };
    for (const [name, value] of Object.entries(added)) headers.set(name, value);
    const signed = await recipe.sign({ ...req, headers }, ctx);
    return { headers: { ...added, ...signed.headers } };
  },
});
