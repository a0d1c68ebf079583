/**
 * Notion: `X-Notion-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, keyed by the
 * `verification_token` Notion posts, unsigned, when the subscription is created:
 * `{"verification_token":"secret_…"}`. Inlet answers 200 and adopts the token as the trigger's
 * secret (trust on first use); the operator reveals it in inlet and pastes it into Notion to
 * finish the set-up. Later events are signed with it.
 */
import { definePlugin, hmacRecipe, type PluginContext, type PluginRequest } from "../../src/plugins/index.ts";
import { parseJson, stringAt } from "../_shared/json.ts";

const recipe = hmacRecipe({ header: "X-Notion-Signature", algorithm: "sha256", encoding: "hex", prefix: "sha256=" });

/** The token of Notion's verification request (a POST with no signature whose body carries it), else `null`. */
function verificationToken(req: PluginRequest): string | null {
  if (req.method !== "POST" || req.headers.has("x-notion-signature")) return null;
  return stringAt(parseJson(req.rawBody), "verification_token");
}

/**
 * The unsigned verification request passes only while the trigger has no secret, or when it
 * carries the token already adopted (Notion's "resend token"). A different token for a trigger
 * that has one fails: inlet could not adopt it, and a 200 would leave Notion signing with a key
 * inlet does not have.
 */
function handshakeAllowed(token: string, ctx: PluginContext): boolean {
  return ctx.secret === "" || ctx.timingSafeEqual(token, ctx.secret);
}

export default definePlugin({
  id: "notion",
  name: "Notion",
  secret: { label: "Verification token (adopted from Notion's first request)", generated: false },
  verify(req, ctx) {
    const token = verificationToken(req);
    // Exactly the handshake shape gets through unsigned, and handshake() answers it, so it never
    // reaches a workflow.
    if (token !== null) return handshakeAllowed(token, ctx);
    return recipe.verify(req, ctx);
  },
  handshake(req, ctx) {
    const token = verificationToken(req);
    if (token === null || !handshakeAllowed(token, ctx)) return null;
    return { response: new Response(null, { status: 200 }), adoptSecret: token };
  },
  // The event id is kept across Notion's retries (the body's `attempt_number` changes).
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "id"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => stringAt(body, "type"),
  credentialHeaders: recipe.credentialHeaders,
  sign: recipe.sign,
});
