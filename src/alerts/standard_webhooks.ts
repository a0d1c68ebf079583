import { createHmac } from "node:crypto";

/**
 * Signs a notification per the Standard Webhooks specification: `webhook-id`, `webhook-timestamp`
 * (unix seconds) and `webhook-signature` = `v1,` + base64 HMAC-SHA256, keyed by the secret's
 * bytes (`whsec_<base64>`), of `id.timestamp.body`.
 *
 * @example
 * ```ts
 * standardWebhookHeaders("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_1", new Date(), '{"a":1}');
 * ```
 */
export function standardWebhookHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
}
