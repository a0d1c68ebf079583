/**
 * Asana: `X-Hook-Signature: <hex HMAC-SHA256 of the raw body>`, keyed by the `X-Hook-Secret`
 * Asana sends in its handshake: while the create-webhook call is in flight, Asana POSTs to the
 * target with that header and no signature, and expects a 200 echoing it. Inlet answers and
 * adopts it as the trigger's secret (trust on first use).
 */
import { definePlugin, hmacRecipe, type PluginContext, type PluginRequest } from "../../src/plugins/index.ts";
import { distinctJoined, parseJson, stringAt, valueAt } from "../_shared/json.ts";

const recipe = hmacRecipe({ header: "X-Hook-Signature", algorithm: "sha256", encoding: "hex" });

/** The secret of Asana's handshake (a POST with `X-Hook-Secret` and no signature), else `null`. */
function handshakeSecret(req: PluginRequest): string | null {
  if (req.method !== "POST" || req.headers.has("x-hook-signature")) return null;
  return req.headers.get("x-hook-secret") || null;
}

/**
 * The handshake passes only while the trigger has no secret (or repeats the adopted one). For a
 * trigger that has one, a new handshake fails, so Asana's create-webhook call fails loudly
 * instead of setting up a webhook whose signatures inlet could never check.
 */
function handshakeAllowed(secret: string, ctx: PluginContext): boolean {
  return ctx.secret === "" || ctx.timingSafeEqual(secret, ctx.secret);
}

export default definePlugin({
  id: "asana",
  name: "Asana",
  secret: { label: "X-Hook-Secret (adopted from Asana's handshake)", generated: false },
  verify(req, ctx) {
    const secret = handshakeSecret(req);
    // Exactly the handshake shape gets through unsigned, and handshake() answers it, so it never
    // reaches a workflow.
    if (secret !== null) return handshakeAllowed(secret, ctx);
    return recipe.verify(req, ctx);
  },
  handshake(req, ctx) {
    const secret = handshakeSecret(req);
    if (secret === null || !handshakeAllowed(secret, ctx)) return null;
    return { response: new Response(null, { status: 200, headers: { "X-Hook-Secret": secret } }), adoptSecret: secret };
  },
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
