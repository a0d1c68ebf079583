import { createPublicKey } from "node:crypto";
import type { Static } from "@sinclair/typebox";
import type { JwtSchema } from "../records/trigger_schemas.ts";

export type JwtConfig = Static<typeof JwtSchema>;

const KEY_TYPES: Record<string, string> = { RS256: "rsa", ES256: "ec", EdDSA: "ed25519" };

/**
 * The rules of `auth.jwt` (docs/api.md#basic-and-jwt), at save: HS256 (a key inlet generates) is never mixed
 * with a public-key algorithm (that mix is how algorithm confusion works), a public-key algorithm
 * needs exactly one of `publicKey` (PEM) and `jwksUrl`, and a PEM key must be one those
 * algorithms can use.
 */
export function jwtRuleErrors(jwt: JwtConfig): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  const symmetric = jwt.algorithms.includes("HS256");
  const asymmetric = jwt.algorithms.filter((a) => a !== "HS256");
  if (symmetric && asymmetric.length) {
    out.push({
      path: "/auth/jwt/algorithms",
      message: "HS256 cannot be combined with RS256, ES256 or EdDSA (a public key must never verify as an HMAC key): choose one kind",
    });
    return out;
  }
  if (symmetric) {
    if (jwt.publicKey !== undefined || jwt.jwksUrl !== undefined)
      out.push({ path: "/auth/jwt", message: "HS256 uses the key inlet generates (revealed as the secret): leave publicKey and jwksUrl out" });
    return out;
  }
  if ((jwt.publicKey === undefined) === (jwt.jwksUrl === undefined)) {
    out.push({ path: "/auth/jwt", message: `${asymmetric.join(", ")} need the signer's public key: give exactly one of publicKey (PEM) or jwksUrl` });
    return out;
  }
  if (jwt.publicKey !== undefined) {
    try {
      const type = createPublicKey(jwt.publicKey).asymmetricKeyType ?? "";
      const fits = asymmetric.filter((a) => KEY_TYPES[a] === type);
      if (fits.length === 0) out.push({ path: "/auth/jwt/publicKey", message: `is a ${type} key, which none of ${asymmetric.join(", ")} uses` });
    } catch (error) {
      out.push({ path: "/auth/jwt/publicKey", message: `is not a PEM public key (-----BEGIN PUBLIC KEY-----…): ${(error as Error).message}` });
    }
  }
  return out;
}
