import { createPublicKey, verify } from "node:crypto";

const DIGESTS = { "RSA-SHA1": "sha1", "RSA-SHA256": "sha256" } as const;

/**
 * Verifies an RSA PKCS#1 v1.5 signature (SNS's SignatureVersion 1 and 2) with the key of an
 * X.509 certificate or a public key, in PEM; anything malformed — the PEM, a key that is not RSA,
 * an unknown algorithm — is `false`. Offered to plugins as `ctx.verifyRsa`.
 *
 * @example
 * ```ts
 * verifyRsa("RSA-SHA256", certificatePem, stringToSign, base64.decode(message.Signature));
 * ```
 */
export function verifyRsa(algorithm: "RSA-SHA1" | "RSA-SHA256", certificatePem: string, data: string | Uint8Array, signature: Uint8Array): boolean {
  try {
    const digest = DIGESTS[algorithm];
    if (!digest || !(signature instanceof Uint8Array)) return false;
    const key = createPublicKey(certificatePem);
    if (key.asymmetricKeyType !== "rsa") return false;
    return verify(digest, typeof data === "string" ? Buffer.from(data, "utf8") : data, key, signature);
  } catch {
    return false;
  }
}
