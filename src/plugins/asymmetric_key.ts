import { createPrivateKey, sign, type KeyObject } from "node:crypto";
import { cannotSign } from "./cannot_sign.ts";
import type { AsymmetricScheme } from "./types.ts";

// DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SEED_HEX = /^[0-9a-fA-F]{64}$/;
const KEY_TYPE: Record<AsymmetricScheme, string> = { ed25519: "ed25519", "ecdsa-p256-sha256": "ec" };

/** The private key from its text: a PEM (PKCS#8 or SEC1), or for Ed25519 also a 32-byte seed as 64 hex digits. */
function privateKey(scheme: AsymmetricScheme, text: string): KeyObject {
  const trimmed = text.trim();
  if (!trimmed) throw cannotSign("the private signing key is empty");
  let key: KeyObject;
  try {
    key =
      scheme === "ed25519" && SEED_HEX.test(trimmed)
        ? createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(trimmed, "hex")]), format: "der", type: "pkcs8" })
        : createPrivateKey(trimmed);
  } catch (error) {
    throw cannotSign(`the signing key is not a private key (${(error as Error).message})`);
  }
  if (key.asymmetricKeyType !== KEY_TYPE[scheme]) throw cannotSign(`a ${scheme} signing key must be ${KEY_TYPE[scheme]}, not ${key.asymmetricKeyType}`);
  return key;
}

/**
 * Signs `data` the way the provider would, with a private key given as text (PEM, or an Ed25519
 * seed in hex). ECDSA signatures come DER-encoded, as SendGrid sends them. Throws
 * `CannotSignError` for an empty or unusable key.
 *
 * @example
 * ```ts
 * const signature = signAsymmetric("ed25519", "9d61b19d…7f60", concatBytes(ts, req.rawBody));
 * ```
 */
export function signAsymmetric(scheme: AsymmetricScheme, privateKeyText: string, data: Uint8Array): Uint8Array {
  return new Uint8Array(sign(scheme === "ed25519" ? null : "sha256", data, privateKey(scheme, privateKeyText)));
}
