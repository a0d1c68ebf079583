/**
 * SendGrid (Twilio SendGrid Signed Event Webhook): ECDSA P-256 / SHA-256 over
 * `${timestamp}${body}`, a base64 DER signature in `X-Twilio-Email-Event-Webhook-Signature`,
 * the timestamp in `X-Twilio-Email-Event-Webhook-Timestamp` (`@sendgrid/eventwebhook`). The
 * appSecret is the "Verification Key": base64 DER SPKI, with or without PEM armour.
 */
import { createPrivateKey, sign as signAsymmetric } from "node:crypto";
import { concatBytes, definePlugin, type PluginContext, type PluginRequest } from "../../src/plugins/index.ts";
import { distinctJoined, parseJson, stringAt } from "../_shared/json.ts";

const SIGNATURE = "x-twilio-email-event-webhook-signature";
const TIMESTAMP_HEADER = "x-twilio-email-event-webhook-timestamp";
const TIMESTAMP = /^\d{1,15}$/;

function requestTimestamp(req: PluginRequest): string | null {
  const ts = req.headers.get(TIMESTAMP_HEADER)?.trim() ?? "";
  return TIMESTAMP.test(ts) ? ts : null;
}

/** The DER public key from the pasted text (PEM armour and whitespace dropped), or `null`. */
function publicKey(secret: string, ctx: PluginContext): Uint8Array | null {
  const body = secret.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  if (!body) return null;
  try {
    return ctx.base64.decode(body);
  } catch {
    return null;
  }
}

/** The events of the batch (the body is a JSON array); `[]` when it is not one. */
function events(rawBody: Uint8Array): unknown[] {
  const body = parseJson(rawBody);
  return Array.isArray(body) ? body : [];
}

export default definePlugin({
  id: "sendgrid",
  name: "SendGrid",
  secret: { label: "Verification key (base64 public key)", generated: false },
  verify(req, ctx) {
    const given = req.headers.get(SIGNATURE)?.trim() ?? "";
    const ts = requestTimestamp(req);
    const key = publicKey(ctx.secret, ctx);
    if (!given || ts === null || key === null) return false;
    let signature: Uint8Array;
    try {
      signature = ctx.base64.decode(given);
    } catch {
      return false;
    }
    return ctx.verifySignature("ecdsa-p256-sha256", key, concatBytes(ts, req.rawBody), signature);
  },
  timestamp(req) {
    const ts = requestTimestamp(req);
    return ts === null ? null : Number(ts);
  },
  // The SDK checks no age; 5 minutes, as for the other signed-timestamp recipes. Doubtful if
  // SendGrid were to resend a failed batch with its first signature (undocumented).
  toleranceSeconds: 300,
  sign(req, ctx) {
    const ts = String(Math.floor(ctx.now.getTime() / 1000));
    const key = createPrivateKey(ctx.secret);
    if (key.asymmetricKeyType !== "ec") throw new TypeError(`a SendGrid signing key must be an EC P-256 key, not ${key.asymmetricKeyType}`);
    // DER-encoded (node's default), as SendGrid sends and its SDK expects.
    const signature = signAsymmetric("sha256", concatBytes(ts, req.rawBody), key);
    return { headers: { "X-Twilio-Email-Event-Webhook-Signature": signature.toString("base64"), "X-Twilio-Email-Event-Webhook-Timestamp": ts } };
  },
  credentialHeaders: [SIGNATURE],
  // A batch has no id of its own, but each event's sg_event_id survives retries (which run for
  // up to 72 h): one event gives its id, several give a digest of their sorted ids.
  deliveryId(req, ctx) {
    const ids = events(req.rawBody).map((event) => stringAt(event, "sg_event_id"));
    if (ids.length === 0 || ids.some((id) => id === null)) return null;
    if (ids.length === 1) return ids[0];
    return "sha256:" + ctx.hash("sha256", ids.sort().join("\n"), "hex");
  },
  dedupWindowSeconds: 259200,
  // Distinct event names of the batch, in order: `delivered`, or `delivered,open`.
  event: (req, body) => distinctJoined((Array.isArray(body) ? body : events(req.rawBody)).map((event) => stringAt(event, "event"))),
});
