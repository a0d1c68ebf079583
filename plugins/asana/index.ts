/**
 * Asana: `X-Hook-Signature: <hex HMAC-SHA256 of the raw body>`, keyed by the `X-Hook-Secret`
 * Asana sends in its handshake: while the create-webhook call is in flight, Asana POSTs to the
 * target with that header and no signature, and expects a 200 echoing it. Inlet answers and
 * adopts it as the trigger's secret (trust on first use).
 */
import { definePlugin, distinctJoined, hmacRecipe, stringAt, trustOnFirstUse, valueAt } from "../../src/plugins/index.ts";

const recipe = hmacRecipe({ header: "X-Hook-Signature", algorithm: "sha256", encoding: "hex" });

export default definePlugin({
  id: "asana",
  name: "Asana",
  secret: { label: "X-Hook-Secret (adopted from Asana's handshake)", generated: false },
  // Asana's handshake: a POST with X-Hook-Secret and no signature, answered 200 echoing the secret.
  // Only while the trigger has no secret (or repeats the adopted one): for a trigger that has
  // another, Asana's create-webhook call then fails loudly instead of setting up a webhook whose
  // signatures inlet could never check.
  ...trustOnFirstUse({
    offeredSecret: (req) => (req.headers.has("x-hook-signature") ? null : req.headers.get("x-hook-secret")),
    reply: (secret) => new Response(null, { status: 200, headers: { "X-Hook-Secret": secret } }),
    verify: recipe.verify,
  }),
  // No delivery id (at-most-once delivery, events carry no id). A retry repeats the body, whose
  // events carry `created_at` and resource gids; Asana retries for up to 24 hours, so remember
  // bodies 25 hours. Heartbeats (`{"events":[]}`) are identical and collapse, which loses nothing.
  contentDedupWindowSeconds: 90000,
  // `task.changed`, `story.added`…: distinct `resource_type.action` of the batch; `heartbeat` when empty.
  event(_req, body) {
    const list = valueAt(body, "events");
    if (!Array.isArray(list)) return null;
    if (list.length === 0) return "heartbeat";
    return distinctJoined(
      list.map((item) => {
        const type = stringAt(item, "resource", "resource_type");
        const action = stringAt(item, "action");
        return type !== null && action !== null ? `${type}.${action}` : action;
      }),
    );
  },
  credentialHeaders: [...recipe.credentialHeaders, "x-hook-secret"],
  sign: recipe.sign,
});
