/** Whether a secret has the Standard Webhooks form `whsec_<base64 of at least 16 bytes>`. */
export function isStandardWebhookSecret(secret: string): boolean {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  return m !== null && Buffer.from(m[1], "base64").length >= 16;
}
