import { createPublicKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK } from "jose";

/**
 * The `kid` a token signed by `key` names, and its JWKS entry carries: the RFC 7638 thumbprint of
 * its public key (Google's own `kid`s are opaque; any key set served with these works alike).
 *
 * @example
 * ```ts
 * await keyIdOf(createPrivateKey(pem)); // "o5IYg_i5-HKlty0VCOWQASyOab691rbY2gTfly0bevY"
 * ```
 */
export async function keyIdOf(key: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(key.type === "private" ? createPublicKey(key) : key));
}
