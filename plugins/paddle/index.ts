/**
 * Paddle Billing: `Paddle-Signature: ts=<unix>;h1=<hex>`, `h1` an HMAC-SHA256 of `${ts}:${body}`
 * keyed by the whole notification-destination secret (`pdl_ntfset_…`) as UTF-8
 * (`@paddle/paddle-node-sdk`). Several `h1` entries are accepted for secret rotation.
 * Paddle Classic (`p_signature`, RSA) is a different product and not handled.
 */
import { concatBytes, definePlugin, parseSignatureList, type PluginRequest } from "../../src/plugins/index.ts";
import { parseJson, stringAt } from "../_shared/json.ts";

const HEADER = "paddle-signature";
const TIMESTAMP = /^\d{1,15}$/;

function parseHeader(req: PluginRequest): { ts: string | null; h1: string[] } {
  const entries = parseSignatureList(req.headers.get(HEADER) ?? "", ";", "=");
  const ts = entries.find(([key]) => key === "ts")?.[1] ?? null;
  return { ts: ts !== null && TIMESTAMP.test(ts) ? ts : null, h1: entries.filter(([key]) => key === "h1").map(([, sig]) => sig) };
}

export default definePlugin({
  id: "paddle",
  name: "Paddle",
  secret: { label: "Notification destination secret key (pdl_ntfset_…)", generated: false },
  verify(req, ctx) {
    const { ts, h1 } = parseHeader(req);
    if (ts === null || h1.length === 0 || !ctx.secret) return false;
    const expected = ctx.hmac("sha256", ctx.secret, concatBytes(ts, ":", req.rawBody), "hex");
    let ok = false;
    for (const sig of h1) if (ctx.timingSafeEqual(sig.toLowerCase(), expected)) ok = true;
    return ok;
  },
  timestamp(req) {
    const { ts } = parseHeader(req);
    return ts === null ? null : Number(ts);
  },
  // The Paddle SDK and docs allow 5 s (`now > ts + 5` is invalid). Tight, but it is Paddle's
  // own number and each retry is signed afresh; a host whose clock drifts will see 401s.
  toleranceSeconds: 5,
  sign(req, ctx) {
    if (!ctx.secret) throw new TypeError("cannot sign: the Paddle secret key is empty");
    const ts = String(Math.floor(ctx.now.getTime() / 1000));
    const h1 = ctx.hmac("sha256", ctx.secret, concatBytes(ts, ":", req.rawBody), "hex");
    return { headers: { "Paddle-Signature": `ts=${ts};h1=${h1}` } };
  },
  credentialHeaders: [HEADER],
  // event_id (`evt_…`) names the event on every delivery of it, retries and replays included;
  // live retries run for up to 3 days.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "event_id"),
  dedupWindowSeconds: 259200,
  // `transaction.completed`, `subscription.updated`…
  event: (_req, body) => stringAt(body, "event_type"),
});
