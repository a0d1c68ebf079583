/**
 * Notion: `X-Notion-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, keyed by the
 * `verification_token` Notion posts, unsigned, when the subscription is created:
 * `{"verification_token":"secret_…"}`. Inlet answers 200 and adopts the token as the trigger's
 * secret (trust on first use); the operator reveals it in inlet and pastes it into Notion to
 * finish the set-up. Later events are signed with it.
 */
import { definePlugin, hmacRecipe, parseJson, stringAt, trustOnFirstUse } from "../../src/plugins/index.ts";

const recipe = hmacRecipe({ header: "X-Notion-Signature", algorithm: "sha256", encoding: "hex", prefix: "sha256=" });

export default definePlugin({
  id: "notion",
  name: "Notion",
  secret: { label: "Verification token (adopted from Notion's first request)", generated: false },
  // Notion's verification request: a POST with no signature whose body carries the token. It
  // passes only while the trigger has no secret, or with the token already adopted (Notion's
  // "resend token"); a different one is refused: a 200 would leave Notion signing with a key
  // inlet does not have.
  ...trustOnFirstUse({
    offeredSecret: (req) => (req.headers.has("x-notion-signature") ? null : stringAt(parseJson(req.rawBody), "verification_token")),
    reply: () => new Response(null, { status: 200 }),
    verify: recipe.verify,
  }),
  // The event id is kept across Notion's retries (the body's `attempt_number` changes).
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "id"),
  dedupWindowSeconds: 86400,
  event: (_req, body) => stringAt(body, "type"),
  credentialHeaders: recipe.credentialHeaders,
  sign: recipe.sign,
});
