import { signAsymmetric } from "./asymmetric_key.ts";
import { timingSafeAnyOf } from "./any_of.ts";
import { cannotSign } from "./cannot_sign.ts";
import { concatBytes, parseSignatureList } from "./recipe.ts";
import { formatTimestamp, parseTimestamp, timestampText, type TimestampUnit } from "./timestamp.ts";
import type { AsymmetricScheme, DigestEncoding, HashAlgorithm, PluginContext, PluginRequest, SignInput, Signed } from "./types.ts";

/** The parts a signed payload is made of, for a `layout` function. */
export interface SignedParts {
  /** The timestamp exactly as sent. */
  timestamp: string;
  body: Uint8Array;
  method: string;
  url: string;
  headers: Headers;
}

/** How the signature is made: an HMAC keyed by the secret, or an asymmetric signature checked with the public key in the secret. */
export type SignatureAlgorithm =
  | { hmac: HashAlgorithm; encoding: DigestEncoding }
  /** `publicKey`: how the secret holds the key; `base64` also takes PEM armour (it is stripped). */
  | { scheme: AsymmetricScheme; encoding: DigestEncoding; publicKey: "hex" | "base64" };

/** A provider that signs a timestamp together with the raw body. */
export interface SignedTimestampRecipe {
  /** Header with the signature (separate-header form), or with timestamp and signatures (list form). */
  header: string;
  /** List form, e.g. Stripe's `t=…,v1=…`: the separator between entries and the keys of the timestamp and of the signatures (repeatable). */
  list?: { separator: string; timestampKey: string; signatureKey: string };
  /** Separate-header form: the header carrying the timestamp. */
  timestampHeader?: string;
  /** How the timestamp is written; default `"s"` (unix seconds). */
  unit?: TimestampUnit;
  /** Separate-header form: literal text before the signature, e.g. `"v0="`. */
  prefix?: string;
  /**
   * What is signed. A template with `{timestamp}`, `{body}` (the raw bytes, never decoded),
   * `{method}`, `{url}` and `{header:NAME}`, e.g. `"{timestamp}.{body}"`; or a function of the parts.
   */
  layout: string | ((parts: SignedParts) => Array<string | Uint8Array>);
  signature: SignatureAlgorithm;
  /** The host's tolerance for the timestamp, both directions. */
  toleranceSeconds: number;
  /** Other headers to remove from `$trigger`, besides `header`. */
  alsoCredentialHeaders?: string[];
}

/** The hooks a signed-timestamp recipe gives a plugin (spread them into it). */
export interface SignedTimestampHooks {
  verify(req: PluginRequest, ctx: PluginContext): boolean;
  /** Unix seconds of the signed timestamp, or `null` when it is missing or malformed. */
  timestamp(req: PluginRequest): number | null;
  toleranceSeconds: number;
  sign(req: SignInput, ctx: PluginContext): Signed;
  credentialHeaders: string[];
}

const PLACEHOLDER = /\{(timestamp|body|method|url|header:[^}]+)\}/g;

/** Compiles a layout template once into a function of the parts; `null` from it means a signed header is missing. */
function layoutOf(layout: SignedTimestampRecipe["layout"]): (parts: SignedParts) => Array<string | Uint8Array> | null {
  if (typeof layout === "function") return layout;
  const pieces = layout.split(PLACEHOLDER);
  // split() with a capture group alternates literal text and placeholder names.
  return (parts) => {
    const out: Array<string | Uint8Array> = [];
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i % 2 === 0) {
        if (piece) out.push(piece);
      } else if (piece === "timestamp") out.push(parts.timestamp);
      else if (piece === "body") out.push(parts.body);
      else if (piece === "method") out.push(parts.method);
      else if (piece === "url") out.push(parts.url);
      else {
        const value = parts.headers.get(piece.slice("header:".length));
        if (!value) return null;
        out.push(value);
      }
    }
    return out;
  };
}

function publicKeyOf(secret: string, format: "hex" | "base64", ctx: PluginContext): Uint8Array | null {
  const text = format === "hex" ? secret.trim() : secret.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, "");
  if (!text) return null;
  try {
    return format === "hex" ? ctx.hex.decode(text) : ctx.base64.decode(text);
  } catch {
    return null;
  }
}

/**
 * Builds `verify`, `timestamp`, `toleranceSeconds`, `sign` and `credentialHeaders` for a provider
 * that signs a timestamp with the raw body: the timestamp in its own header (Slack, Discord,
 * SendGrid, HubSpot, Twitch, Zoom) or in a list header beside the signatures (Stripe, Paddle,
 * Calendly), signed by an HMAC or an asymmetric key. Spread it into a plugin. Every signature a
 * list header carries is checked in constant time; any match passes (providers send several
 * while a secret is rolled). `verify` reads only `ctx.secret`, so a host holding several
 * candidate secrets calls it once per candidate.
 *
 * @example
 * ```ts
 * export default definePlugin({
 *   id: "stripe", name: "Stripe", secret: { label: "Signing secret", generated: false },
 *   ...signedTimestampRecipe({
 *     header: "Stripe-Signature",
 *     list: { separator: ",", timestampKey: "t", signatureKey: "v1" },
 *     layout: "{timestamp}.{body}",
 *     signature: { hmac: "sha256", encoding: "hex" },
 *     toleranceSeconds: 300,
 *   }),
 * });
 * ```
 */
export function signedTimestampRecipe(recipe: SignedTimestampRecipe): SignedTimestampHooks {
  if (!recipe.list === !recipe.timestampHeader) throw new TypeError("a signed-timestamp recipe takes either list or timestampHeader");
  const unit = recipe.unit ?? "s";
  const prefix = recipe.prefix ?? "";
  const layout = layoutOf(recipe.layout);
  const algorithm = recipe.signature;
  const isHmac = "hmac" in algorithm;
  const normalise = (value: string) => (algorithm.encoding === "hex" ? value.toLowerCase() : value.replace(/=+$/, ""));

  /** The timestamp text and the signatures the request carries. */
  const read = (req: PluginRequest): { timestamp: string | null; signatures: string[] } => {
    const value = req.headers.get(recipe.header) ?? "";
    if (recipe.list) {
      const { separator, timestampKey, signatureKey } = recipe.list;
      const entries = parseSignatureList(value, separator, "=");
      const timestamp = entries.find(([key]) => key === timestampKey)?.[1];
      return { timestamp: timestampText(timestamp, unit), signatures: entries.filter(([key]) => key === signatureKey).map(([, sig]) => sig) };
    }
    const given = value.trim();
    const signatures = given.startsWith(prefix) && given.length > prefix.length ? [given.slice(prefix.length)] : [];
    return { timestamp: timestampText(req.headers.get(recipe.timestampHeader!), unit), signatures };
  };

  const payload = (req: PluginRequest | SignInput, timestamp: string): Uint8Array | null => {
    const parts = layout({ timestamp, body: req.rawBody, method: req.method, url: req.url, headers: req.headers });
    return parts === null ? null : concatBytes(...parts);
  };

  return {
    verify(req, ctx) {
      const { timestamp, signatures } = read(req);
      if (timestamp === null || signatures.length === 0 || !ctx.secret) return false;
      const signed = payload(req, timestamp);
      if (signed === null) return false;
      if (isHmac) return timingSafeAnyOf(signatures.map(normalise), normalise(ctx.hmac(algorithm.hmac, ctx.secret, signed, algorithm.encoding)));
      const key = publicKeyOf(ctx.secret, algorithm.publicKey, ctx);
      if (key === null) return false;
      let ok = false;
      for (const given of signatures) {
        try {
          const signature = algorithm.encoding === "hex" ? ctx.hex.decode(given) : ctx.base64.decode(given);
          if (ctx.verifySignature(algorithm.scheme, key, signed, signature)) ok = true;
        } catch {
          // A signature that does not decode simply does not match.
        }
      }
      return ok;
    },
    timestamp(req) {
      return parseTimestamp(read(req).timestamp, unit);
    },
    toleranceSeconds: recipe.toleranceSeconds,
    sign(req, ctx) {
      if (!ctx.secret) throw cannotSign(`the ${isHmac ? "secret" : "private key"} is empty`);
      const timestamp = formatTimestamp(ctx.now, unit);
      const signed = payload(req, timestamp);
      if (signed === null) throw cannotSign(`a header the signature covers is missing (layout ${JSON.stringify(recipe.layout)})`);
      const signature = isHmac
        ? ctx.hmac(algorithm.hmac, ctx.secret, signed, algorithm.encoding)
        : (algorithm.encoding === "hex" ? ctx.hex : ctx.base64).encode(signAsymmetric(algorithm.scheme, ctx.secret, signed));
      if (recipe.list) {
        const { separator, timestampKey, signatureKey } = recipe.list;
        return { headers: { [recipe.header]: `${timestampKey}=${timestamp}${separator}${signatureKey}=${signature}` } };
      }
      return { headers: { [recipe.timestampHeader!]: timestamp, [recipe.header]: prefix + signature } };
    },
    credentialHeaders: [recipe.header, ...(recipe.alsoCredentialHeaders ?? [])].map((h) => h.toLowerCase()),
  };
}
