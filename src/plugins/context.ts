import { createPublicKey, verify as verifyAsymmetric, type KeyObject } from "node:crypto";
import { base64, hex } from "../auth/codec.ts";
import { hash, hmac } from "../auth/digest.ts";
import { timingSafeEqual } from "../auth/timing_safe_equal.ts";
import { settingsWithDefaults } from "./app_settings.ts";
import { ProviderFetchRefused } from "./provider_errors.ts";
import { PROVIDER_FETCH, type ProviderFetch } from "./provider_fetch.ts";
import { verifyProviderJwt } from "./provider_jwt.ts";
import { recipes } from "./recipes.ts";
import { verifyRsa } from "./verify_rsa.ts";
import type { AppSettingValue, AsymmetricScheme, PluginContext } from "./types.ts";

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it.
const ED25519_SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);

function publicKeyFor(scheme: AsymmetricScheme, key: Uint8Array): KeyObject {
  if (scheme === "ed25519") {
    if (key.length !== 32) throw new TypeError(`an Ed25519 public key has 32 bytes, not ${key.length}`);
    const der = new Uint8Array(ED25519_SPKI_PREFIX.length + 32);
    der.set(ED25519_SPKI_PREFIX);
    der.set(key, ED25519_SPKI_PREFIX.length);
    return createPublicKey({ key: Buffer.from(der), format: "der", type: "spki" });
  }
  return createPublicKey({ key: Buffer.from(key), format: "der", type: "spki" });
}

/**
 * Verifies an asymmetric signature; anything malformed (key, signature) is simply `false`.
 * Offered to plugins as `ctx.verifySignature`.
 *
 * @example
 * ```ts
 * // Discord: Ed25519 over timestamp + raw body, the public key and signature in hex.
 * verifySignature("ed25519", hex.decode(publicKeyHex), concatBytes(ts, req.rawBody), hex.decode(signatureHex));
 * ```
 */
export function verifySignature(scheme: AsymmetricScheme, publicKey: Uint8Array, data: string | Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = publicKeyFor(scheme, publicKey);
    const message = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    return verifyAsymmetric(scheme === "ed25519" ? null : "sha256", message, key, signature);
  } catch {
    return false;
  }
}

/** What the host gives a trigger's hooks beside the secret and the clock. */
export interface PluginHost {
  /** The trigger's `appSettings`, defaults filled (see `settingsWithDefaults`); none: `{}`. */
  settings?: Readonly<Record<string, AppSettingValue>>;
  /** Where fetches go (`--provider-fetch-allow`, the cache, the gate); default: the provider's hosts only. */
  providerFetch?: ProviderFetch;
}

const NO_SETTINGS = settingsWithDefaults([], undefined);

/**
 * The context a plugin hook receives for one request; `armed`: whether its trigger may adopt a
 * new secret from a handshake now (trust on first use); `host`: its settings and fetcher.
 *
 * @example
 * ```ts
 * const ctx = pluginContext("It's a Secret to Everybody", new Date());
 * ctx.hmac("sha256", ctx.secret, "Hello, World!", "hex");
 * ```
 */
export function pluginContext(secret: string, now: Date, armed = false, host: PluginHost = {}): PluginContext {
  const fetcher = host.providerFetch ?? PROVIDER_FETCH;
  // A plugin turns a refused fetch or token into `false` (verify must not throw on bad input);
  // what was refused is kept for the owner's Activity row (see whyRefused).
  const noting = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProviderFetchRefused) refusals.set(ctx, error.message);
      throw error;
    }
  };
  const ctx: PluginContext = {
    secret,
    now,
    armed,
    hmac,
    hash,
    timingSafeEqual,
    verifySignature,
    base64,
    hex,
    recipes,
    settings: host.settings ?? NO_SETTINGS,
    fetchText: (url, rule) => noting(() => fetcher.fetchText(url, rule)),
    confirmUrl: (url, rule) => noting(() => fetcher.confirmUrl(url, rule)),
    verifyJwt: async (token, options) => {
      const result = await verifyProviderJwt(fetcher, token, options, now);
      if (!result.ok) refusals.set(ctx, `JWT refused: ${result.reason}`);
      return result;
    },
    verifyRsa,
    refuse: (reason) => {
      refusals.set(ctx, String(reason));
      return false;
    },
  };
  return ctx;
}

const refusals = new WeakMap<PluginContext, string>();

/**
 * What the context refused during a hook (a URL outside the fetch rule, a JWT, a plugin's own
 * `ctx.refuse(reason)`), or null: the host
 * adds it to the Activity row of a request that did not verify, which otherwise would only say
 * "signature missing or invalid".
 */
export const whyRefused = (ctx: PluginContext): string | null => refusals.get(ctx) ?? null;
