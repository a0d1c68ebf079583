/**
 * Mandrill (Mailchimp Transactional): `X-Mandrill-Signature`, base64 HMAC-SHA1 keyed by the
 * webhook's auth key over the webhook URL exactly as registered followed by each POST parameter
 * sorted by name as `name+value` (in practice the single `mandrill_events`). Register inlet's
 * trigger URL exactly as `--base-url` builds it: `req.url` is what gets signed.
 *
 * Mandrill checks a new webhook's URL with a HEAD request, answered 200.
 */
import { cannotSign, definePlugin, distinctJoined, type PluginContext, stringAt, valueAt } from "../../src/plugins/index.ts";

const SIGNATURE = "x-mandrill-signature";
const decoder = new TextDecoder();

/** POST parameters; a repeated name keeps its last value, as PHP's `$_POST` does in Mandrill's sample. */
function formParams(rawBody: Uint8Array): Map<string, string> {
  return new Map(new URLSearchParams(decoder.decode(rawBody)));
}

function signatureOf(url: string, rawBody: Uint8Array, ctx: PluginContext): string {
  const params = formParams(rawBody);
  let data = url;
  for (const name of [...params.keys()].sort()) data += name + params.get(name);
  return ctx.hmac("sha1", ctx.secret, data, "base64");
}

/** The events of `mandrill_events`; `[]` when it is missing or not a JSON array. */
function batch(fields: unknown): unknown[] {
  const raw = valueAt(fields, "mandrill_events");
  if (typeof raw !== "string") return [];
  try {
    const events: unknown = JSON.parse(raw);
    return Array.isArray(events) ? events : [];
  } catch {
    return [];
  }
}

export default definePlugin({
  id: "mandrill",
  name: "Mandrill",
  secret: { label: "Webhook key", generated: false },
  verify(req, ctx) {
    const given = req.headers.get(SIGNATURE)?.trim();
    if (!given || !ctx.secret) return false;
    return ctx.timingSafeEqual(given, signatureOf(req.url, req.rawBody, ctx));
  },
  sign(req, ctx) {
    if (!ctx.secret) throw cannotSign("the Mandrill webhook key is empty");
    return { headers: { "X-Mandrill-Signature": signatureOf(req.url, req.rawBody, ctx) } };
  },
  credentialHeaders: [SIGNATURE],
  // A batch has no id (each event has the message's `_id`, not its own); Mandrill retries a
  // failed batch with growing delays, so its exact body is remembered for a day.
  contentDedupWindowSeconds: 86400,
  // Distinct names in the batch: `send`, `open,click`…; sync events name theirs in `type`.
  event: (req, body) => {
    const fields = body !== null && typeof body === "object" ? body : Object.fromEntries(formParams(req.rawBody));
    return distinctJoined(batch(fields).map((event) => stringAt(event, "event") ?? stringAt(event, "type")));
  },
  handshake: (req) => (req.method === "HEAD" ? new Response(null, { status: 200 }) : null),
});
