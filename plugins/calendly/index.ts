/**
 * Calendly: `Calendly-Webhook-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "{t}.{raw body}">`,
 * keyed by the webhook signing key.
 */
import { concatBytes, definePlugin, parseSignatureList, type PluginContext, type PluginRequest, type SignInput } from "../../src/plugins/index.ts";
import { stringAt } from "../_shared/json.ts";

const HEADER = "calendly-webhook-signature";
const DIGITS = /^\d{1,15}$/;

function parse(req: PluginRequest | SignInput): { t: string; v1: string[] } | null {
  const value = req.headers.get(HEADER);
  if (value === null) return null;
  const entries = parseSignatureList(value, ",", "=");
  const t = entries.find(([key]) => key === "t")?.[1];
  const v1 = entries.filter(([key]) => key === "v1").map(([, sig]) => sig.toLowerCase());
  return t !== undefined && DIGITS.test(t) && v1.length > 0 ? { t, v1 } : null;
}

const digest = (t: string, rawBody: Uint8Array, ctx: PluginContext) => ctx.hmac("sha256", ctx.secret, concatBytes(t, ".", rawBody), "hex");

export default definePlugin({
  id: "calendly",
  name: "Calendly",
  secret: { label: "Webhook signing key", generated: false },
  verify(req, ctx) {
    const header = parse(req);
    if (header === null || ctx.secret === "") return false;
    const expected = digest(header.t, req.rawBody, ctx);
    let ok = false;
    for (const candidate of header.v1) if (ctx.timingSafeEqual(candidate, expected)) ok = true;
    return ok;
  },
  timestamp(req) {
    const header = parse(req);
    return header === null ? null : Number(header.t);
  },
  // Calendly's own verification example rejects signatures older than three minutes.
  toleranceSeconds: 180,
  // No delivery id. A retry repeats the body, whose `created_at` and `payload.uri` make two real
  // events differ; Calendly retries with back-off for 24 hours, so remember bodies 25 hours.
  contentDedupWindowSeconds: 90000,
  event: (_req, body) => stringAt(body, "event"),
  credentialHeaders: [HEADER],
  sign(req, ctx) {
    if (ctx.secret === "") throw new TypeError("cannot sign: the signing key is empty");
    const t = String(Math.floor(ctx.now.getTime() / 1000));
    return { headers: { "Calendly-Webhook-Signature": `t=${t},v1=${digest(t, req.rawBody, ctx)}` } };
  },
});
