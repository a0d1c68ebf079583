/**
 * The app-trigger plugin API (CONTRACT §4).
 *
 * A plugin is a plain object: the host reads its declarative fields (tolerance, windows,
 * credential headers) and calls its hooks. The host, never the plugin, enforces the timestamp
 * tolerance, delivery-id deduplication and content-hash deduplication.
 *
 * @module
 */

import type { DeclaredHandshake } from "./declared_handshake.ts";
import type { PluginRecipes } from "./recipes.ts";


import type { DigestEncoding, HashAlgorithm } from "../records/digest.ts";

/** Digest algorithms and encodings of `ctx.hmac` / `ctx.hash`. */
export type { DigestEncoding, HashAlgorithm };

/** What a plugin sees of an inbound request. */
export interface PluginRequest {
  /** `POST`, `GET`, `HEAD`… */
  readonly method: string;
  /** The public URL the provider called, built from `--base-url` (never from `Host`), query included. */
  readonly url: string;
  readonly headers: Headers;
  /** The body exactly as received: signatures cover these bytes. */
  readonly rawBody: Uint8Array;
}

/** Byte/string codecs offered to plugins (they cannot import packages inside the binary). */
export interface Codec {
  encode(bytes: Uint8Array): string;
  /** Throws a `TypeError` on malformed input. */
  decode(text: string): Uint8Array;
}

/** Asymmetric signature schemes the host can verify for plugins. */
export type AsymmetricScheme =
  /** Ed25519; public key as 32 raw bytes (Discord gives it as hex). */
  | "ed25519"
  /** ECDSA P-256 with SHA-256, DER-encoded signature; public key as DER SPKI bytes (SendGrid). */
  | "ecdsa-p256-sha256";

/** The host services and per-trigger facts a plugin hook receives. */
export interface PluginContext {
  /** The trigger's `appSecret` (signing secret, public key, `user:password`…); "" when none is set. */
  readonly secret: string;
  /** The time the request arrived. Use it, not `Date.now()`, so tests can pin the clock. */
  readonly now: Date;
  /**
   * Whether the trigger is armed (README "Trust on first use"): a handshake may hand it a new
   * secret now, replacing the one it has. Always false for plugins without `adoptsSecret`.
   */
  readonly armed: boolean;
  /** HMAC of `data` keyed by `key` (strings are UTF-8), synchronous. */
  hmac(alg: HashAlgorithm, key: string | Uint8Array, data: string | Uint8Array, encoding: DigestEncoding): string;
  /** Plain digest (HubSpot v1/v2 hash the secret with the body). */
  hash(alg: HashAlgorithm, data: string | Uint8Array, encoding: DigestEncoding): string;
  /** Constant-time equality of two strings or byte arrays of any lengths. */
  timingSafeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean;
  /** Verifies an asymmetric signature; malformed keys or signatures give `false`. */
  verifySignature(scheme: AsymmetricScheme, publicKey: Uint8Array, data: string | Uint8Array, signature: Uint8Array): boolean;
  readonly base64: Codec;
  readonly hex: Codec;
  /**
   * The recipe helpers built-in plugins import (`signedTimestampRecipe`, `hmacRecipe`,
   * `trustOnFirstUse`, `parseTimestamp`, `cannotSign`, `timingSafeAnyOf`…), for plugins that
   * cannot import them (a `--plugins-dir` file inside the binary).
   */
  readonly recipes: PluginRecipes;
}

/** What `sign()` receives: the request to be signed, before its signature headers exist. */
export interface SignInput {
  readonly method: string;
  readonly url: string;
  readonly rawBody: Uint8Array;
  /** Headers the caller already chose (e.g. a delivery id); `sign()` may read them. */
  readonly headers: Headers;
}

/**
 * What `sign()` returns: headers to add, the URL when the recipe changes it (Twilio's
 * `bodySHA256`), and the body when the recipe carries its signature inside it (Mailgun).
 */
export interface Signed {
  headers: Record<string, string>;
  url?: string;
  /** The body to send instead of the one given, when the signature lives in the body. */
  rawBody?: Uint8Array;
}

/** A handshake answer. `adoptSecret` stores a secret the provider hands over on first contact (Asana, Notion) — only while the trigger is armed (`adoptsSecret`). */
export type HandshakeResult = Response | { response: Response; adoptSecret?: string } | null;

type Awaitable<T> = T | Promise<T>;

/** An app-trigger plugin: one provider's recipe. */
export interface InletPlugin {
  /** `[a-z0-9-]+`, unique: the Trigger's `app`. */
  id: string;
  /** Human name, e.g. `"GitHub"`. */
  name: string;
  /** What the user pastes (or what inlet generates, GitHub-style). */
  secret: { label: string; generated: boolean };
  /**
   * `true` when `handshake()` hands the trigger its secret (`adoptSecret`: trust on first use,
   * Asana, Notion). Its triggers are armed for 15 minutes after they are created or armed, and
   * the host adopts a secret only then (README "Trust on first use"); without it, an
   * `adoptSecret` is refused. `trustOnFirstUse()` sets it.
   */
  adoptsSecret?: boolean;
  /** `true` only when the request carries the provider's valid signature (or credential). Never throws for bad input. */
  verify(req: PluginRequest, ctx: PluginContext): Awaitable<boolean>;
  /** The signed timestamp in unix seconds, or `null` when the request has none. */
  timestamp?(req: PluginRequest, ctx: PluginContext): number | null;
  /** Needs `timestamp()` (a plugin without it is not loaded): the host answers 401 when the timestamp is further than this from now, either way, or missing. */
  toleranceSeconds?: number;
  /** The provider's delivery id (same across its retries), or `null`. */
  deliveryId?(req: PluginRequest, ctx: PluginContext): string | null;
  /** How long a delivery id is remembered; cover the provider's retry schedule. Default 86400. */
  dedupWindowSeconds?: number;
  /** Where the provider sends no delivery id: remember SHA-256 of the exact body this long. */
  contentDedupWindowSeconds?: number;
  /** The event type for `$trigger.app.event`. `body` is the parsed body: read it, do not change it. */
  event?(req: PluginRequest, body: unknown): string | null;
  /** Answer a URL-verification call; `null` when this request is not one. */
  handshake?(req: PluginRequest, ctx: PluginContext): Awaitable<HandshakeResult>;
  /**
   * URL-verification calls described as data (a challenge echo, a fixed answer), answered by the
   * host after the request verifies; instead of `handshake()` where no code is needed.
   */
  handshakes?: DeclaredHandshake[];
  /** Lower-case header names removed from `$trigger` (signatures, tokens, timestamps that carry secrets). */
  credentialHeaders?: string[];
  /**
   * Query parameter names removed from `$trigger.query`, compared lower-case: a credential the
   * provider carries in the URL (Azure Event Grid's `?code=`). `req.url` still has them.
   */
  credentialQuery?: string[];
  /**
   * Methods besides `POST` that reach only `handshake()`, and only once `verify` passes, like a
   * `POST` handshake (CloudEvents' `OPTIONS` abuse-protection check, Azure Event Grid). Such a
   * request that is not a handshake gets 405. `GET` and `HEAD` are not listed here: they reach
   * `handshake()` unverified (providers do not sign those URL checks).
   *
   * @example
   * ```ts
   * handshakeMethods: ["OPTIONS"],
   * ```
   */
  handshakeMethods?: string[];
  /**
   * Signs a request the way the provider would (tests, `inlet sign --app`). `ctx.secret` is the
   * signing key: the shared secret, or for asymmetric recipes the private key (PEM or hex seed).
   */
  sign?(req: SignInput, ctx: PluginContext): Awaitable<Signed>;
}
