/**
 * SendGrid (Twilio SendGrid Signed Event Webhook): ECDSA P-256 / SHA-256 over
 * `${timestamp}${body}`, a base64 DER signature in `X-Twilio-Email-Event-Webhook-Signature`,
 * the timestamp in `X-Twilio-Email-Event-Webhook-Timestamp` (`@sendgrid/eventwebhook`). The
 * appSecret is the "Verification Key": base64 DER SPKI, with or without PEM armour.
 */
import { definePlugin, distinctJoined, parseJson, signedTimestampRecipe, stringAt } from "../../src/plugins/index.ts";

/** The events of the batch (the body is a JSON array); `[]` when it is not one. */
function events(rawBody: Uint8Array): unknown[] {
  const body = parseJson(rawBody);
  return Array.isArray(body) ? body : [];
}

export default definePlugin({
  id: "sendgrid",
  name: "SendGrid",
  secret: { label: "Verification key (base64 public key)", generated: false },
  // sign() takes the EC P-256 private key as PEM; signatures are DER, as SendGrid sends them.
  ...signedTimestampRecipe({
    header: "X-Twilio-Email-Event-Webhook-Signature",
    timestampHeader: "X-Twilio-Email-Event-Webhook-Timestamp",
    layout: "{timestamp}{body}",
    signature: { scheme: "ecdsa-p256-sha256", encoding: "base64", publicKey: "base64" },
    // The SDK checks no age; 5 minutes, as for the other signed-timestamp recipes. Doubtful if
    // SendGrid were to resend a failed batch with its first signature (undocumented).
    toleranceSeconds: 300,
  }),
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
