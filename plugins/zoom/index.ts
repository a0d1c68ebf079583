/**
 * Zoom: `x-zm-signature: v0=<hex HMAC-SHA256 of "v0:{x-zm-request-timestamp}:{raw body}">`, keyed
 * by the app's Secret Token. `endpoint.url_validation` (sent when the URL is saved, then every
 * 72 h) is signed the same way and answered with `{plainToken, encryptedToken}`.
 */
import { concatBytes, definePlugin, hmacRecipe, type PluginContext, type PluginRequest, type Signed } from "../../src/plugins/index.ts";
import { parseJson, stringAt } from "../_shared/json.ts";

const TIMESTAMP_HEADER = "x-zm-request-timestamp";
const DIGITS = /^\d{1,16}$/;

const recipe = hmacRecipe({
  header: "x-zm-signature",
  algorithm: "sha256",
  encoding: "hex",
  prefix: "v0=",
  signedContent(req) {
    const timestamp = req.headers.get(TIMESTAMP_HEADER);
    return timestamp !== null && DIGITS.test(timestamp) ? concatBytes("v0:", timestamp, ":", req.rawBody) : null;
  },
});

/** The `plainToken` of an `endpoint.url_validation` event, else `null`. */
function urlValidationToken(body: unknown): string | null {
  return stringAt(body, "event") === "endpoint.url_validation" ? stringAt(body, "payload", "plainToken") : null;
}

export default definePlugin({
  id: "zoom",
  name: "Zoom",
  secret: { label: "Secret Token", generated: false },
  verify: recipe.verify,
  timestamp(req) {
    const value = req.headers.get(TIMESTAMP_HEADER);
    if (value === null || !DIGITS.test(value)) return null;
    const n = Number(value);
    // Zoom sends seconds; a millisecond value would otherwise fail every request, so accept both.
    return n > 1e11 ? n / 1000 : n;
  },
  // Zoom's SDK enforces none; five minutes is the common choice. Each retry is signed anew.
  toleranceSeconds: 300,
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
  credentialHeaders: recipe.credentialHeaders,
  async sign(req, ctx): Promise<Signed> {
    const timestamp = String(Math.floor(ctx.now.getTime() / 1000));
    const headers = new Headers(req.headers);
    headers.set(TIMESTAMP_HEADER, timestamp);
    const signed = await recipe.sign({ ...req, headers }, ctx);
    return { headers: { [TIMESTAMP_HEADER]: timestamp, ...signed.headers } };
  },
});
