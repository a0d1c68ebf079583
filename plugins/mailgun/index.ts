/**
 * Mailgun: the signature travels in the body, `signature: {timestamp, token, signature}`, the
 * last an HMAC-SHA256 hex of `${timestamp}${token}` keyed by the "HTTP webhook signing key". The
 * body itself is not signed (the fixture says `signsBody: false`). Events of a subaccount also
 * carry `parent-signature`, made with the parent account's key: either one passes.
 *
 * Legacy webhooks and Routes post a form with `timestamp`, `token`, `signature` fields; those are
 * read too (url-encoded forms; multipart bodies are not).
 */
import { randomBytes } from "node:crypto";
import {
  cannotSign,
  definePlugin,
  formatTimestamp,
  parseJson,
  parseTimestamp,
  type PluginRequest,
  stringAt,
  timestampText,
  timingSafeAnyOf,
  valueAt,
} from "../../src/plugins/index.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

interface SignatureBlock {
  timestamp: string | null;
  token: string | null;
  signatures: string[];
}

function isJsonBody(req: { headers: Headers; rawBody: Uint8Array }): boolean {
  const type = req.headers.get("content-type");
  return type ? /[/+]json\b/i.test(type) : req.rawBody[0] === 0x7b;
}

/** The signature block, from the JSON body's `signature` object or a form's fields. */
function signatureBlock(req: PluginRequest): SignatureBlock {
  let source: unknown;
  if (isJsonBody(req)) source = valueAt(parseJson(req.rawBody), "signature");
  else source = Object.fromEntries(new URLSearchParams(decoder.decode(req.rawBody)));
  const timestamp = stringAt(source, "timestamp") ?? numberText(valueAt(source, "timestamp"));
  const signatures = [stringAt(source, "signature"), stringAt(source, "parent-signature")].filter((s): s is string => s !== null);
  return { timestamp: timestampText(timestamp), token: stringAt(source, "token"), signatures };
}

/** Mailgun documents the timestamp as an int but sends a string; take either. */
function numberText(value: unknown): string | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
}

export default definePlugin({
  id: "mailgun",
  name: "Mailgun",
  secret: { label: "HTTP webhook signing key", generated: false },
  verify(req, ctx) {
    const { timestamp, token, signatures } = signatureBlock(req);
    if (timestamp === null || token === null || signatures.length === 0 || !ctx.secret) return false;
    const expected = ctx.hmac("sha256", ctx.secret, timestamp + token, "hex");
    return timingSafeAnyOf(
      signatures.map((sig) => sig.toLowerCase()),
      expected,
    );
  },
  timestamp(req) {
    return parseTimestamp(signatureBlock(req).timestamp);
  },
  // Mailgun retries for 8 hours (5 min … 4 h apart), and retries resend the original signature
  // block (Hookdeck's reference; Mailgun's docs are silent), so 5 minutes would refuse every
  // retry. 9 hours covers the schedule; within it a replay of the same event is still caught by
  // its delivery id.
  toleranceSeconds: 32400,
  sign(req, ctx) {
    if (!ctx.secret) throw cannotSign("the Mailgun signing key is empty");
    const timestamp = formatTimestamp(ctx.now);
    const token = randomBytes(25).toString("hex"); // 50 characters, like Mailgun's
    const block = { timestamp, token, signature: ctx.hmac("sha256", ctx.secret, timestamp + token, "hex") };
    if (isJsonBody(req)) {
      const body = parseJson(req.rawBody);
      const base = body !== null && typeof body === "object" && !Array.isArray(body) ? body : {};
      return { headers: {}, rawBody: encoder.encode(JSON.stringify({ ...base, signature: block })) };
    }
    const form = new URLSearchParams(decoder.decode(req.rawBody));
    for (const [name, value] of Object.entries(block)) form.set(name, value);
    return { headers: {}, rawBody: encoder.encode(form.toString()) };
  },
  credentialHeaders: [],
  // event-data.id names the event and is the same when Mailgun retries.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "event-data", "id"),
  dedupWindowSeconds: 86400,
  // `delivered`, `failed`, `opened`…; legacy forms name it `event`.
  event: (_req, body) => stringAt(body, "event-data", "event") ?? stringAt(body, "event"),
});
