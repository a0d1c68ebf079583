/**
 * Zoom: `x-zm-signature: v0=<hex HMAC-SHA256 of "v0:{x-zm-request-timestamp}:{raw body}">`, keyed
 * by the app's Secret Token. `endpoint.url_validation` (sent when the URL is saved, then every
 * 72 h) is signed the same way and answered with `{plainToken, encryptedToken}`.
 */
import { definePlugin, parseJson, type PluginContext, type PluginRequest, signedTimestampRecipe, stringAt } from "../../src/plugins/index.ts";

const recipe = signedTimestampRecipe({
  header: "x-zm-signature",
  timestampHeader: "x-zm-request-timestamp",
  // Zoom sends seconds; a millisecond value would otherwise fail every request, so accept both.
  unit: "s-or-ms",
  prefix: "v0=",
  layout: "v0:{timestamp}:{body}",
  signature: { hmac: "sha256", encoding: "hex" },
  // Zoom's SDK enforces none; five minutes is the common choice. Each retry is signed anew.
  toleranceSeconds: 300,
});

/** The `plainToken` of an `endpoint.url_validation` event, else `null`. */
function urlValidationToken(body: unknown): string | null {
  return stringAt(body, "event") === "endpoint.url_validation" ? stringAt(body, "payload", "plainToken") : null;
}

export default definePlugin({
  id: "zoom",
  name: "Zoom",
  secret: { label: "Secret Token", generated: false },
  ...recipe,
  // No delivery id is documented. A retry repeats the body (whose `event_ts` is in ms, so two real
  // events never share one); Zoom retries after 5, 25 and 85 minutes, so three hours covers them.
  contentDedupWindowSeconds: 10800,
  event: (_req, body) => stringAt(body, "event"),
  async handshake(req: PluginRequest, ctx: PluginContext) {
    const plainToken = urlValidationToken(parseJson(req.rawBody));
    if (plainToken === null) return null;
    // The host verifies before it asks for a handshake; checking again here keeps this answer
    // (an HMAC of a caller-chosen string under the secret) from ever being an oracle.
    if (!(await recipe.verify(req, ctx))) return null;
    return Response.json({ plainToken, encryptedToken: ctx.hmac("sha256", ctx.secret, plainToken, "hex") });
  },
});
