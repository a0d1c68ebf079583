/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, each `v1` an HMAC-SHA256 of
 * `${t}.${body}` keyed by the whole `whsec_…` string as UTF-8 (stripe-node `Webhooks`). Several
 * `v1` entries arrive while a secret is rolled; any match passes. `v0` (test-mode legacy) is
 * ignored, as the SDK does.
 */
import { concatBytes, definePlugin, parseSignatureList, type PluginRequest } from "../../src/plugins/index.ts";
import { parseJson, stringAt } from "../_shared/json.ts";

const HEADER = "stripe-signature";
const TIMESTAMP = /^\d{1,15}$/;

/** The `t` and `v1` entries of the header; `t` is `null` unless it is a plain integer. */
function parseHeader(req: PluginRequest): { t: string | null; v1: string[] } {
  const entries = parseSignatureList(req.headers.get(HEADER) ?? "", ",", "=");
  const t = entries.find(([key]) => key === "t")?.[1] ?? null;
  return { t: t !== null && TIMESTAMP.test(t) ? t : null, v1: entries.filter(([key]) => key === "v1").map(([, sig]) => sig) };
}

export default definePlugin({
  id: "stripe",
  name: "Stripe",
  secret: { label: "Endpoint signing secret (whsec_…)", generated: false },
  verify(req, ctx) {
    const { t, v1 } = parseHeader(req);
    if (t === null || v1.length === 0 || !ctx.secret) return false;
    const expected = ctx.hmac("sha256", ctx.secret, concatBytes(t, ".", req.rawBody), "hex");
    let ok = false;
    // Check every entry so the time taken does not reveal which one matched.
    for (const sig of v1) if (ctx.timingSafeEqual(sig.toLowerCase(), expected)) ok = true;
    return ok;
  },
  timestamp(req) {
    const { t } = parseHeader(req);
    return t === null ? null : Number(t);
  },
  // stripe-node's DEFAULT_TOLERANCE; every retry is signed afresh with a new `t`.
  toleranceSeconds: 300,
  sign(req, ctx) {
    if (!ctx.secret) throw new TypeError("cannot sign: the Stripe signing secret is empty");
    const t = String(Math.floor(ctx.now.getTime() / 1000));
    const v1 = ctx.hmac("sha256", ctx.secret, concatBytes(t, ".", req.rawBody), "hex");
    return { headers: { "Stripe-Signature": `t=${t},v1=${v1}` } };
  },
  credentialHeaders: [HEADER],
  // The event id (`evt_…`) is the same on every retry; live mode retries for up to 3 days.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "id"),
  dedupWindowSeconds: 259200,
  // `payment_intent.succeeded`, `invoice.paid`…
  event: (_req, body) => stringAt(body, "type"),
});
