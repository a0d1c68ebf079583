import type { HandshakeResult, InletPlugin, PluginContext, PluginRequest } from "./types.ts";

/** A provider that hands its signing secret over, unsigned, in a first request (Asana, Notion). */
export interface TrustOnFirstUse {
  /** The secret this POST offers when it is the provider's unsigned first request, else `null` (an empty one counts as none). */
  offeredSecret(req: PluginRequest): string | null;
  /** The answer the provider expects to that request. */
  reply(secret: string): Response;
  /** How every other (signed) request is verified. */
  verify: InletPlugin["verify"];
}

/**
 * Builds `verify` and `handshake` for a trust-on-first-use set-up (and `adoptsSecret: true`):
 * the first request offers a secret and passes unsigned only while the trigger has none, is
 * armed (`ctx.armed`: a new set-up may replace the secret), or offers the one already adopted (a
 * retried set-up); `handshake()` answers it and the host adopts the secret — only while the
 * trigger is armed, for 15 minutes after it is created or armed (README "Trust on first use").
 * A different secret for an unarmed trigger that has one is refused, so the provider's set-up
 * fails loudly instead of signing with a key inlet does not hold.
 *
 * @example
 * ```ts
 * const body = hmacRecipe({ header: "X-Hook-Signature", algorithm: "sha256", encoding: "hex" });
 * export default definePlugin({
 *   id: "asana", name: "Asana", secret: { label: "X-Hook-Secret", generated: false },
 *   ...trustOnFirstUse({
 *     offeredSecret: (req) => (req.headers.has("x-hook-signature") ? null : req.headers.get("x-hook-secret")),
 *     reply: (secret) => new Response(null, { headers: { "X-Hook-Secret": secret } }),
 *     verify: body.verify,
 *   }),
 *   sign: body.sign,
 * });
 * ```
 */
export function trustOnFirstUse(spec: TrustOnFirstUse): Required<Pick<InletPlugin, "verify" | "handshake">> & { adoptsSecret: true } {
  const allowed = (secret: string, ctx: PluginContext) => ctx.secret === "" || ctx.armed === true || ctx.timingSafeEqual(secret, ctx.secret);
  // Set-ups are POSTs; a GET or HEAD never offers a secret.
  const offeredBy = (req: PluginRequest) => (req.method === "POST" ? spec.offeredSecret(req) || null : null);
  return {
    adoptsSecret: true,
    verify(req, ctx) {
      const offered = offeredBy(req);
      // Exactly the set-up shape gets through unsigned, and handshake() answers it, so it never reaches a workflow.
      if (offered !== null) return allowed(offered, ctx);
      return spec.verify(req, ctx);
    },
    handshake(req, ctx): HandshakeResult {
      const offered = offeredBy(req);
      if (offered === null || !allowed(offered, ctx)) return null;
      return { response: spec.reply(offered), adoptSecret: offered };
    },
  };
}
