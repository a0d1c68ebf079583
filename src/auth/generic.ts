import type { AuthConfig } from "../records/trigger.ts";
import { hmac } from "./digest.ts";
import { timingSafeEqual } from "./timing_safe_equal.ts";
import { AUTH_PASS as PASS, authFailure as fail, type AuthResult } from "./auth_result.ts";

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Whether a generic mode verifies with a secret inlet generates (every one but none, and JWTs on public keys). */
export function usesGeneratedSecret(auth: AuthConfig): boolean {
  if (auth.type === "none") return false;
  return auth.type !== "jwt" || (auth.jwt?.algorithms ?? ["HS256"]).includes("HS256");
}

/** Header names that carry a credential in a generic mode, lower-case: kept out of `$trigger`. */
export function credentialHeaders(auth: AuthConfig): string[] {
  switch (auth.type) {
    case "bearer":
      return ["authorization"];
    case "header":
      return ["authorization", (auth.headerName ?? "").toLowerCase()];
    case "hmac-sha256":
    case "hmac-sha512":
      return ["authorization", auth.signatureHeader.toLowerCase()];
    default:
      return ["authorization"];
  }
}

function verifyHmac(auth: AuthConfig, secret: string, headers: Headers, rawBody: Uint8Array): AuthResult {
  const alg = auth.type === "hmac-sha512" ? "sha512" : "sha256";
  const value = headers.get(auth.signatureHeader);
  if (value === null || value === "") return fail(`missing signature header ${auth.signatureHeader}`);
  const digest = value.startsWith(`${alg}=`) ? value.slice(alg.length + 1) : value;
  const expectedLength = alg === "sha256" ? 32 : 64;
  if (auth.encoding === "base64") {
    const bare = digest.replace(/=+$/, "");
    if (!BASE64.test(digest) || Math.floor((bare.length * 3) / 4) !== expectedLength) {
      return fail(`invalid signature format in ${auth.signatureHeader}: expected ${alg}=<base64 digest> or <base64 digest>`);
    }
    const expected = hmac(alg, secret, rawBody, "base64").replace(/=+$/, "");
    return timingSafeEqual(bare, expected) ? PASS : fail("signature does not match the body");
  }
  if (!HEX.test(digest) || digest.length !== expectedLength * 2) {
    return fail(`invalid signature format in ${auth.signatureHeader}: expected ${alg}=<hex digest> or <hex digest>`);
  }
  return timingSafeEqual(digest.toLowerCase(), hmac(alg, secret, rawBody, "hex")) ? PASS : fail("signature does not match the body");
}

/**
 * Authenticates a request by a generic trigger's Authentication Type (docs/processing-order.md#authentication).
 * Every comparison is constant-time; the HMAC covers the raw body bytes exactly as received.
 *
 * @example
 * ```ts
 * authenticate({ type: "bearer", signatureHeader: "X-Signature", encoding: "hex" }, secret, request.headers, body);
 * ```
 */
export function authenticate(auth: AuthConfig, secret: string | null, headers: Headers, rawBody: Uint8Array): AuthResult {
  if (auth.type === "none") return PASS;
  if (!secret) return fail("the trigger has no secret");
  switch (auth.type) {
    case "bearer": {
      const value = headers.get("authorization");
      if (value === null) return fail("missing Authorization header");
      if (!value.startsWith("Bearer ") || value.length === 7) return fail("Authorization header is not 'Bearer <token>' with a single space");
      return timingSafeEqual(value.slice(7), secret) ? PASS : fail("wrong bearer token");
    }
    case "header": {
      const name = auth.headerName ?? "";
      const value = headers.get(name);
      if (value === null) return fail(`missing header ${name}`);
      return timingSafeEqual(value, secret) ? PASS : fail(`wrong secret in header ${name}`);
    }
    case "hmac-sha256":
    case "hmac-sha512":
      return verifyHmac(auth, secret, headers, rawBody);
    case "basic":
      return verifyBasic(auth.username ?? "inlet", secret, headers.get("authorization"));
    case "jwt":
      // Asynchronous (keys may come from a JWKS URL): see JwtVerifier in jwt.ts.
      throw new TypeError("jwt triggers are verified by a JwtVerifier, not by authenticate()");
  }
}

/** `Authorization: Basic base64(username:password)`, both compared in constant time. */
function verifyBasic(username: string, password: string, header: string | null): AuthResult {
  if (header === null) return fail("missing Authorization header");
  if (!/^Basic [A-Za-z0-9+/]+={0,2}$/.test(header)) return fail("Authorization header is not 'Basic <base64 of username:password>'");
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return fail("Basic credentials have no ':' between username and password");
  const userOk = timingSafeEqual(decoded.slice(0, colon), username);
  const passOk = timingSafeEqual(decoded.slice(colon + 1), password);
  return userOk && passOk ? PASS : fail(userOk ? "wrong password for the Basic username" : "wrong Basic username");
}
