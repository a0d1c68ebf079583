import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { JWKS_COOLDOWN_MS, jwksProblem } from "../auth/jwt.ts";
import { ProviderUnavailable } from "./provider_errors.ts";
import type { ProviderFetch } from "./provider_fetch.ts";
import type { JwtCheck, JwtCheckOptions } from "./types.ts";

/** What a provider signs its tokens with, unless the plugin says: asymmetric only (never `none`, never HMAC with a public key). */
export const DEFAULT_PROVIDER_JWT_ALGORITHMS = ["RS256", "ES256", "EdDSA"];
const SYMMETRIC = /^(HS\d+|none)$/i;
/** A fetched key set is kept this long before it is fetched again. */
const KEY_SET_MAX_AGE_MS = 10 * 60_000;

/**
 * `ctx.verifyJwt`: a provider's token (Google's push OIDC token) checked with `jose` against the
 * JWKS at `options.jwksUrl`, fetched only where `options.hosts` (or `--provider-fetch-allow`)
 * allows, through `fetcher`'s gate. A refused token is `{ ok: false, reason }`; a JWKS that
 * cannot be fetched throws {@link ProviderUnavailable}.
 *
 * @example
 * ```ts
 * const result = await verifyProviderJwt(fetcher, token, { jwksUrl, hosts: /^www\.googleapis\.com$/, issuer: "https://accounts.google.com", audience }, new Date());
 * ```
 */
export async function verifyProviderJwt(fetcher: ProviderFetch, token: string, options: JwtCheckOptions, now: Date): Promise<JwtCheck> {
  const algorithms = options.algorithms ?? DEFAULT_PROVIDER_JWT_ALGORITHMS;
  // A plugin's mistake, not a sender's: HMAC against a public key set is algorithm confusion.
  if (algorithms.length === 0 || algorithms.some((a) => SYMMETRIC.test(a)))
    throw new TypeError(`verifyJwt takes asymmetric algorithms only (got ${JSON.stringify(algorithms)})`);
  if (typeof token !== "string" || token === "") return { ok: false, reason: "no token" };
  const refused = fetcher.problem(options.jwksUrl, { hosts: options.hosts, purpose: "JWKS" });
  if (refused) return { ok: false, reason: `keys not fetched: ${refused}` };
  const href = new URL(options.jwksUrl).href;
  const keys = fetcher.perUrl<JWTVerifyGetKey>(`jwks ${href}`, () =>
    createRemoteJWKSet(new URL(href), {
      cooldownDuration: JWKS_COOLDOWN_MS,
      cacheMaxAge: KEY_SET_MAX_AGE_MS,
      [customFetch]: async () =>
        new Response(await fetcher.fetchAllowed(href, "JWKS", jwksProblem), { status: 200, headers: { "Content-Type": "application/json" } }),
    }),
  );
  const tolerance = options.clockToleranceSeconds ?? 60;
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms,
      issuer: options.issuer,
      audience: options.audience,
      clockTolerance: tolerance,
      currentDate: now,
      requiredClaims: ["exp"],
    });
    // jose checks `iat` against the clock only with a maximum token age.
    const ahead = (payload.iat ?? 0) - now.getTime() / 1000;
    if (ahead > tolerance) return { ok: false, reason: `"iat" is ${Math.round(ahead)} s in the future (tolerance ${tolerance} s)` };
    const mismatch = claimMismatch(payload, options.claims);
    if (mismatch) return { ok: false, reason: `claim check failed: ${mismatch}` };
    return { ok: true, claims: { ...payload } };
  } catch (error) {
    if (error instanceof ProviderUnavailable) throw error;
    return { ok: false, reason: describe(error) };
  }
}

/** The first claim of `expected` the token does not hold with exactly that value, in words; null when all hold. */
function claimMismatch(payload: Record<string, unknown>, expected: JwtCheckOptions["claims"]): string | null {
  for (const [name, value] of Object.entries(expected ?? {})) {
    if (!Object.hasOwn(payload, name)) return `${JSON.stringify(name)} is missing (expected ${JSON.stringify(value)})`;
    if (payload[name] !== value) return `${JSON.stringify(name)} is ${JSON.stringify(payload[name])}, not ${JSON.stringify(value)}`;
  }
  return null;
}

/** The owner's reason for a refused token. */
function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) return `expired (${error.message})`;
  if (error instanceof errors.JWTClaimValidationFailed) return `claim check failed: ${error.message}`;
  if (error instanceof errors.JOSEAlgNotAllowed) return `algorithm not allowed: ${error.message}`;
  if (error instanceof errors.JWKSNoMatchingKey) return "signed with a key the JWKS does not hold (unknown kid)";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "signature does not verify";
  return `refused: ${(error as Error)?.message || String(error)}`;
}
