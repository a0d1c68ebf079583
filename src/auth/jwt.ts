import { createPublicKey, type KeyObject } from "node:crypto";
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { AUTH_PASS, authFailure, type AuthResult } from "./auth_result.ts";
import type { JwtConfig } from "./jwt_rules.ts";
import { KEY_FETCHES, KeyFetchCoolingDown, KeyFetchFailed, type KeyFetchGate } from "./key_fetch_gate.ts";

/** An unknown `kid` refetches the JWKS at most this often, so senders cannot make inlet hammer the JWKS host. */
export const JWKS_COOLDOWN_MS = 30_000;
/** A fetched JWKS is kept this long before it is fetched again. */
const JWKS_MAX_AGE_MS = 10 * 60_000;

/**
 * Verifies `Authorization: Bearer <JWT>` for a `jwt` trigger (docs/api.md#basic-and-jwt) with `jose`: only the
 * configured algorithms (so `alg: none` and algorithm confusion are refused), `exp` required,
 * `nbf`/`iat` honoured, issuer and audience when set, all within the clock tolerance. One per
 * trigger version: it keeps the JWKS cache. JWKS fetches go through `gate`, which leaves a URL
 * that fails alone for a while, however many requests arrive (see KeyFetchGate).
 */
export class JwtVerifier {
  private readonly jwks: JWTVerifyGetKey | null;
  private readonly publicKey: KeyObject | null;

  constructor(
    private readonly jwt: JwtConfig,
    gate: KeyFetchGate = KEY_FETCHES,
  ) {
    this.jwks = jwt.jwksUrl
      ? createRemoteJWKSet(new URL(jwt.jwksUrl), {
          cooldownDuration: JWKS_COOLDOWN_MS,
          cacheMaxAge: JWKS_MAX_AGE_MS,
          timeoutDuration: 5000,
          [customFetch]: async (url, init) =>
            new Response(await gate.fetch(url, init, jwksProblem), { status: 200, headers: { "Content-Type": "application/json" } }),
        })
      : null;
    this.publicKey = jwt.publicKey ? createPublicKey(jwt.publicKey) : null;
  }

  /** `secret`: the generated HS256 key (unused for public-key algorithms). */
  async verify(header: string | null, secret: string | null, now: Date): Promise<AuthResult> {
    if (header === null) return authFailure("missing Authorization header");
    if (!header.startsWith("Bearer ") || header.length === 7) return authFailure("Authorization header is not 'Bearer <JWT>'");
    const token = header.slice(7);
    const tolerance = this.jwt.clockToleranceSeconds ?? 60;
    const options = {
      algorithms: this.jwt.algorithms,
      issuer: this.jwt.issuer,
      audience: this.jwt.audience,
      clockTolerance: tolerance,
      currentDate: now,
      requiredClaims: ["exp"],
    };
    try {
      let payload: JWTPayload;
      if (this.jwks) ({ payload } = await jwtVerify(token, this.jwks, options));
      else if (this.publicKey) ({ payload } = await jwtVerify(token, this.publicKey, options));
      else if (secret) ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), options));
      else return authFailure("the trigger has no key to verify JWTs with");
      // jose checks `iat` against the clock only with a maximum token age, which the contract does not set.
      const ahead = (payload.iat ?? 0) - now.getTime() / 1000;
      if (ahead > tolerance) return authFailure(`JWT claim check failed: "iat" is ${Math.round(ahead)} s in the future (tolerance ${tolerance} s)`);
      return AUTH_PASS;
    } catch (error) {
      return authFailure(`JWT ${describe(error)}`);
    }
  }
}

/** Why a fetched body is not a JSON Web Key Set (null: it is), checked before it counts as a successful fetch. */
export function jwksProblem(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "the answer is not JSON";
  }
  const keys = (body as { keys?: unknown } | null)?.keys;
  const isObject = (k: unknown) => typeof k === "object" && k !== null && !Array.isArray(k);
  return Array.isArray(keys) && keys.every(isObject) ? null : 'the answer is not a JSON Web Key Set ({"keys":[…]})';
}

/** The owner's reason for a refused token (never sent to the caller). */
function describe(error: unknown): string {
  if (error instanceof KeyFetchFailed || error instanceof KeyFetchCoolingDown) return `keys not fetched: ${error.message}`;
  if (error instanceof errors.JWTExpired) return `expired (${error.message})`;
  if (error instanceof errors.JWTClaimValidationFailed) return `claim check failed: ${error.message}`;
  if (error instanceof errors.JOSEAlgNotAllowed) return `algorithm not allowed: ${error.message}`;
  if (error instanceof errors.JWKSNoMatchingKey) return "signed with a key the JWKS does not hold (unknown kid)";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature does not verify";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JOSEError) return `refused: ${error.message}`;
  return `refused: ${(error as Error)?.message || String(error)}`;
}
