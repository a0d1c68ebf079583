/**
 * The app-trigger plugin API (docs/plugins.md).
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

/** A setting's value: `text` a string, `lines` an array of strings, `switch` a boolean. */
export type AppSettingValue = string | string[] | boolean;

/** What a setting's `check` (and `checkLine`) receives beside the value. */
export interface AppSettingCheckContext {
  /** The trigger's public URL (`{base_url}/webhooks/<token>`), e.g. a default audience. */
  readonly triggerUrl: string;
  /**
   * Why `ctx.fetchText(url, rule)` would refuse `url` (not https on the rule's hosts, nor a
   * `--provider-fetch-allow` host), or null when it would fetch it: a setting naming a URL is
   * refused when saved instead of failing every request.
   *
   * @example
   * ```ts
   * check: (url, ctx) => (url === "" ? null : ctx.fetchProblem(String(url), { hosts: /^www\.googleapis\.com$/, purpose: "JWKS" })),
   * ```
   */
  fetchProblem(url: string, rule: FetchRule): string | null;
}

/**
 * A non-secret setting of an app trigger (`appSettings.<key>`), shown in the panel's app section
 * by its `label` and validated when the trigger is saved; hooks read it as `ctx.settings[key]`.
 *
 * @example
 * ```ts
 * settings: [
 *   { key: "topicArns", label: "Topic ARNs", kind: "lines", default: [],
 *     check: (arns) => ((arns as string[]).length ? null : "add the ARN of at least one topic"),
 *     checkLine: (arn) => (/^arn:aws:sns:[a-z0-9-]+:\d{12}:[\w-]+$/.test(arn) ? null : "is not an SNS topic ARN") },
 *   { key: "autoConfirm", label: "Auto-confirm subscriptions", kind: "switch", default: false },
 * ],
 * ```
 */
export interface AppSettingSpec {
  /** `[A-Za-z][A-Za-z0-9_]*`, unique in the plugin: the key in `appSettings` and `ctx.settings`. */
  key: string;
  /** The field's accessible name in the panel, e.g. `Topic ARNs`. */
  label: string;
  /** `text`: one line; `lines`: an array of strings, shown one per line; `switch`: on or off. */
  kind: "text" | "lines" | "switch";
  /** One sentence under the field. */
  help?: string;
  /** The value when the trigger does not set one; else `""`, `[]` or `false` by kind. */
  default?: AppSettingValue;
  /** The problem with the whole value (after defaults are filled), or null. Checked at every save. */
  check?(value: AppSettingValue, ctx: AppSettingCheckContext): string | null;
  /** `lines` only: the problem with one line, or null; reported at `/appSettings/<key>/<index>`. */
  checkLine?(line: string, ctx: AppSettingCheckContext): string | null;
}

/**
 * Where `ctx.fetchText`, `ctx.confirmUrl` and `ctx.verifyJwt` may fetch from: https on the
 * provider's own hosts (default port), or any host:port of `--provider-fetch-allow` over http or
 * https (a mirror, a test double). `pathPattern` applies to both.
 */
export interface FetchRule {
  /** The provider's hosts: a RegExp that must match the whole (lower-case) host name, or a predicate of it. */
  hosts: RegExp | ((host: string) => boolean);
  /** The URL's path must match it too (`test()`), e.g. `/\.pem$/`. */
  pathPattern?: RegExp;
  /** How long a successful `fetchText` is reused, per URL (default 3600; 0: not cached). */
  cacheSeconds?: number;
  /** What is fetched, in words for Activity: `"SNS signing certificate"`. */
  purpose: string;
}

/** What `ctx.verifyJwt` checks a token against. */
export interface JwtCheckOptions {
  /** Where the provider's keys are (a JSON Web Key Set), fetched under `hosts` like `ctx.fetchText`. */
  jwksUrl: string;
  /** The provider's key hosts, as in {@link FetchRule}. */
  hosts: FetchRule["hosts"];
  /** The `iss` claim must be this, or one of these. */
  issuer: string | string[];
  /** The `aud` claim must hold this. */
  audience: string;
  /** Asymmetric algorithms accepted (default `["RS256", "ES256", "EdDSA"]`); `none` and HMAC ones are refused. */
  algorithms?: string[];
  /** Clock skew allowed for `exp`, `nbf` and `iat` (default 60). */
  clockToleranceSeconds?: number;
  /**
   * Other claims that must hold exactly these values (a string, a boolean or a number), e.g.
   * Pub/Sub's `{ email: "push@project.iam.gserviceaccount.com", email_verified: true }`; one that
   * is absent or different refuses the token, its reason naming the claim.
   */
  claims?: Record<string, string | boolean | number>;
}

/** `ctx.verifyJwt`'s answer: the verified claims, or why the token is refused (for Activity). */
export type JwtCheck = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

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
  /**
   * The trigger's `appSettings`, every declared setting present (defaults filled). Read-only.
   *
   * @example
   * ```ts
   * const listed = (ctx.settings.topicArns as string[]).includes(message.TopicArn);
   * ```
   */
  readonly settings: Readonly<Record<string, AppSettingValue>>;
  /**
   * The text at `url`, when `rule` allows it (else it throws `ProviderFetchRefused`, `code`
   * `"provider_fetch_refused"`, without fetching: catch it and return `false` from `verify`, the
   * uniform 401, as `verify` must not throw on bad input; the host adds what was refused to the
   * Activity row). Cached per URL for
   * `rule.cacheSeconds`. A fetch that fails (no answer within 5 s, not 200) throws
   * `ProviderUnavailable`, and so does every call for that URL during the 30 s (doubling, up to
   * 5 min) it is left alone: let it propagate, and the host answers 503 with `Retry-After` (the
   * provider retries) and an `error` Activity row naming the host.
   *
   * @example
   * ```ts
   * const pem = await ctx.fetchText(message.SigningCertURL, {
   *   hosts: /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/, pathPattern: /\.pem$/, purpose: "SNS signing certificate",
   * });
   * ```
   */
  fetchText(url: string, rule: FetchRule): Promise<string>;
  /**
   * GETs `url` under the same rules as {@link fetchText}, never cached: how SNS confirms a
   * subscription (its `SubscribeURL`). Throws `ProviderFetchRefused` or `ProviderUnavailable` likewise.
   *
   * @example
   * ```ts
   * if (ctx.settings.autoConfirm === true) await ctx.confirmUrl(message.SubscribeURL, { hosts: SNS_HOSTS, purpose: "SNS subscription confirmation" });
   * ```
   */
  confirmUrl(url: string, rule: FetchRule): Promise<void>;
  /**
   * Verifies a JWT signed by a key of the JWKS at `options.jwksUrl` (fetched under
   * `options.hosts`, cached, refetched on an unknown `kid` at most every 30 s): only the given
   * asymmetric algorithms, `exp` required, `nbf`/`iat` honoured, `iss` and `aud` checked. A
   * refused token (or a JWKS URL outside `hosts`) is `{ ok: false, reason }`, and the host adds
   * the reason to the Activity row when `verify` then fails; a JWKS host that fails throws
   * `ProviderUnavailable` (503).
   *
   * @example
   * ```ts
   * const result = await ctx.verifyJwt(bearer, {
   *   jwksUrl: "https://www.googleapis.com/oauth2/v3/certs", hosts: /^www\.googleapis\.com$/,
   *   issuer: ["accounts.google.com", "https://accounts.google.com"], audience: String(ctx.settings.audience),
   * });
   * return result.ok && result.claims.email_verified === true;
   * ```
   */
  verifyJwt(token: string, options: JwtCheckOptions): Promise<JwtCheck>;
  /**
   * Verifies an RSA PKCS#1 v1.5 signature with the key of an X.509 certificate (or a public key)
   * in PEM; anything malformed, or a key that is not RSA, is `false`.
   *
   * @example
   * ```ts
   * ctx.verifyRsa(message.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256", pem, stringToSign, ctx.base64.decode(message.Signature));
   * ```
   */
  verifyRsa(algorithm: "RSA-SHA1" | "RSA-SHA256", certificatePem: string, data: string | Uint8Array, signature: Uint8Array): boolean;
  /**
   * `false`, noting why for the owner: when `verify` refuses a request for a reason other than its
   * signature (a setting it breaks), the Activity row says so instead of only "signature missing
   * or invalid". The caller still gets the uniform 401, which says nothing.
   *
   * @example
   * ```ts
   * if (!topics.includes(message.TopicArn)) return ctx.refuse(`topic ${message.TopicArn} is not one of the trigger's Topic ARNs`);
   * ```
   */
  refuse(reason: string): false;
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

/** What `decodeBody()` is told about the trigger. */
export interface DecodeOptions {
  /** The trigger redacts PII: a raw copy of what was decoded would be stored unredacted. */
  readonly redacting: boolean;
}

/**
 * A handshake answer. `adoptSecret` stores a secret the provider hands over on first contact
 * (Asana, Notion) — only while the trigger is armed (`adoptsSecret`). `detail` is what the owner
 * reads on the request's Activity row instead of "URL-verification handshake answered" (SNS names
 * the `SubscribeURL` that confirms its subscription).
 */
export type HandshakeResult = Response | { response: Response; adoptSecret?: string; detail?: string } | null;

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
  /**
   * `$trigger.body` with what the provider encodes inside the parsed body decoded (Pub/Sub's
   * base64 `message.data`): a new value, `body` itself left unchanged (return it as is when there
   * is nothing to decode). Schema, filter, redaction and `event()` then see what it returns; a
   * throw, or a value nested deeper than bodies may be (256 levels), leaves the body as parsed. `options.redacting`: the trigger redacts PII, which sees only
   * the decoded form, so leave out raw copies of what was decoded. `body` is parsed by the
   * request's `Content-Type`: JSON a provider sends as text (SNS's `text/plain`) arrives as that
   * text, and `parseJson(req.rawBody)` gives it parsed (numbers exact, the parse the hooks share).
   *
   * @example
   * ```ts
   * decodeBody: (body) => (isObject(body) && typeof body.payload === "string" ? { ...body, decoded: JSON.parse(atob(body.payload)) } : body),
   * ```
   */
  decodeBody?(body: unknown, req: PluginRequest, options: DecodeOptions): unknown;
  /** Answer a URL-verification call; `null` when this request is not one. */
  handshake?(req: PluginRequest, ctx: PluginContext): Awaitable<HandshakeResult>;
  /**
   * URL-verification calls described as data (a challenge echo, a fixed answer), answered by the
   * host after the request verifies; instead of `handshake()` where no code is needed.
   */
  handshakes?: DeclaredHandshake[];
  /**
   * Non-secret settings of its triggers (`appSettings`), validated when a trigger is saved, shown
   * in the panel by their labels, read by hooks as `ctx.settings`.
   */
  settings?: AppSettingSpec[];
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
