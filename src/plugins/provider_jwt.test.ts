import { afterAll, expect, test } from "bun:test";
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { KeyFetchGate } from "../auth/key_fetch_gate.ts";
import { pluginContext } from "./context.ts";
import { ProviderUnavailable } from "./provider_errors.ts";
import { ProviderFetch } from "./provider_fetch.ts";
import type { JwtCheckOptions } from "./types.ts";

// A provider's JWKS served on 127.0.0.1 (allowed as --provider-fetch-allow allows it), tokens
// signed here with jose, and a clock of the test's.
const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
const other = await generateKeyPair("RS256", { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
let up = true;
let hits = 0;
const host = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch() {
    hits++;
    return up ? Response.json({ keys: [jwk] }) : new Response("down", { status: 503 });
  },
});
afterAll(() => host.stop(true));

const NOW = new Date(1_750_000_000_000);
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const AUDIENCE = "https://hooks.example.test/webhooks/abc";
const ISSUER = "https://accounts.google.com";
let urls = 0;
const freshUrl = () => `http://127.0.0.1:${host.port}/certs-${++urls}`;

function contextFor(options: { allow?: string[] } = {}) {
  const gate = new KeyFetchGate(() => NOW.getTime());
  const providerFetch = new ProviderFetch(options.allow ?? [`127.0.0.1:${host.port}`], { gate, now: () => NOW.getTime() });
  return pluginContext("", NOW, false, { providerFetch });
}
const optionsFor = (jwksUrl: string): JwtCheckOptions => ({
  jwksUrl,
  hosts: /^www\.googleapis\.com$/,
  issuer: ["accounts.google.com", ISSUER],
  audience: AUDIENCE,
});

function token(claims: Record<string, unknown> = {}, header: { kid?: string; key?: CryptoKey } = {}) {
  return new SignJWT({ email: "push@project.iam.gserviceaccount.com", email_verified: true, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: header.kid ?? "k1" })
    .setIssuer((claims.iss as string) ?? ISSUER)
    .setAudience((claims.aud as string) ?? AUDIENCE)
    .setIssuedAt(seconds(NOW))
    .setExpirationTime((claims.exp as number) ?? seconds(NOW) + 3600)
    .sign(header.key ?? privateKey);
}

test("a token signed by a key of the JWKS, for this audience and issuer: ok, with its claims; the JWKS is fetched once", async () => {
  const ctx = contextFor();
  const options = optionsFor(freshUrl());
  hits = 0;
  const result = await ctx.verifyJwt(await token(), options);
  expect(result).toEqual({
    ok: true,
    claims: expect.objectContaining({ email: "push@project.iam.gserviceaccount.com", email_verified: true, iss: ISSUER, aud: AUDIENCE }),
  });
  expect((await ctx.verifyJwt(await token({ iss: "accounts.google.com" }), options)).ok).toBe(true);
  expect(hits).toBe(1);
});

test("refused with a reason: alg none, an unknown kid, expired, another issuer or audience, a bad signature, garbage", async () => {
  const ctx = contextFor();
  const options = optionsFor(freshUrl());
  const none = new UnsecuredJWT({ iss: ISSUER, aud: AUDIENCE, exp: seconds(NOW) + 60 }).encode();
  const cases: Array<[string, RegExp]> = [
    [none, /algorithm|Unsecured|alg/i],
    [await token({}, { kid: "k2", key: other.privateKey }), /unknown kid/],
    [await token({ exp: seconds(NOW) - 120 }), /^expired/],
    [await token({ iss: "https://evil.example" }), /claim check failed: unexpected "iss"/],
    [await token({ aud: "https://hooks.example.test/webhooks/other" }), /claim check failed: unexpected "aud"/],
    [await token({}, { key: other.privateKey }), /signature does not verify/],
    ["not.a.jwt", /^refused:/],
    ["", /no token/],
  ];
  for (const [jwt, reason] of cases) {
    const result = await ctx.verifyJwt(jwt, options);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.reason).toMatch(reason);
  }
});

test("a JWKS URL outside the rule is refused without a fetch; HMAC algorithms are a plugin's mistake (TypeError)", async () => {
  const ctx = contextFor({ allow: [] });
  const url = freshUrl();
  hits = 0;
  const result = await ctx.verifyJwt(await token(), optionsFor(url));
  expect(result).toEqual({ ok: false, reason: expect.stringContaining("keys not fetched: JWKS: http://127.0.0.1") });
  expect(hits).toBe(0);
  await expect(ctx.verifyJwt(await token(), { ...optionsFor(url), algorithms: ["HS256"] })).rejects.toThrow(TypeError);
  await expect(ctx.verifyJwt(await token(), { ...optionsFor(url), algorithms: ["none"] })).rejects.toThrow(TypeError);
});

test("a JWKS host that fails throws ProviderUnavailable (the host answers 503), and is left alone meanwhile", async () => {
  const ctx = contextFor();
  const options = optionsFor(freshUrl());
  up = false;
  hits = 0;
  try {
    const jwt = await token();
    for (let i = 0; i < 3; i++) {
      const error = await ctx.verifyJwt(jwt, options).then(
        () => null,
        (e) => e,
      );
      expect(error).toBeInstanceOf(ProviderUnavailable);
      expect(error).toMatchObject({ host: `127.0.0.1:${host.port}`, retryAfterSeconds: 30 });
    }
    expect(hits).toBe(1);
  } finally {
    up = true;
  }
});

test("claims: each must hold exactly the given value; one absent or different refuses the token, naming the claim", async () => {
  const ctx = contextFor();
  const options = { ...optionsFor(freshUrl()), claims: { email: "push@project.iam.gserviceaccount.com", email_verified: true } };
  expect((await ctx.verifyJwt(await token(), options)).ok).toBe(true);
  const cases: Array<[Record<string, unknown>, string]> = [
    [
      { email: "other@project.iam.gserviceaccount.com" },
      `claim check failed: "email" is "other@project.iam.gserviceaccount.com", not "push@project.iam.gserviceaccount.com"`,
    ],
    [{ email_verified: false }, `claim check failed: "email_verified" is false, not true`],
    [{ email_verified: "true" }, `claim check failed: "email_verified" is "true", not true`],
  ];
  for (const [claims, reason] of cases) expect(await ctx.verifyJwt(await token(claims), options)).toEqual({ ok: false, reason });
  const withoutEmail = await new SignJWT({ email_verified: true })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(seconds(NOW))
    .setExpirationTime(seconds(NOW) + 60)
    .sign(privateKey);
  expect(await ctx.verifyJwt(withoutEmail, options)).toEqual({
    ok: false,
    reason: `claim check failed: "email" is missing (expected "push@project.iam.gserviceaccount.com")`,
  });
});
