import { timingSafeAnyOf } from "./any_of.ts";
import { cannotSign } from "./cannot_sign.ts";
import type { DigestEncoding, HashAlgorithm, InletPlugin, PluginContext, PluginRequest, SignInput } from "./types.ts";

const encoder = new TextEncoder();

/**
 * Joins strings (UTF-8) and byte arrays into one byte array: the usual shape of a signed
 * payload such as `${timestamp}.${body}` without decoding the raw body.
 *
 * @example
 * ```ts
 * concatBytes(timestamp, ".", req.rawBody);
 * ```
 */
export function concatBytes(...parts: Array<string | Uint8Array>): Uint8Array {
  const chunks = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Parses a list header such as `t=1700000000,v1=abc,v1=def` into entries, keeping repeats.
 *
 * @example
 * ```ts
 * parseSignatureList("t=1,v1=a,v1=b", ",", "=");
 * // [["t","1"],["v1","a"],["v1","b"]]
 * ```
 */
export function parseSignatureList(value: string, entrySeparator: string, keySeparator: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const raw of value.split(entrySeparator)) {
    const entry = raw.trim();
    const at = entry.indexOf(keySeparator);
    if (at <= 0) continue;
    out.push([entry.slice(0, at).trim(), entry.slice(at + keySeparator.length).trim()]);
  }
  return out;
}

/** The common recipe: an HMAC of some bytes of the request, sent in one header. */
export interface HmacRecipe {
  /** Header carrying the signature, e.g. `"X-Hub-Signature-256"`. */
  header: string;
  algorithm: HashAlgorithm;
  encoding: DigestEncoding;
  /** Literal prefix before the digest, e.g. `"sha256="`. */
  prefix?: string;
  /** The bytes that are signed; default the raw body. Return `null` when a part is missing (fails verification). */
  signedContent?(req: PluginRequest | SignInput, ctx: PluginContext): string | Uint8Array | null;
  /** The HMAC key from the secret; default the secret's UTF-8 bytes. */
  key?(secret: string): string | Uint8Array;
  /** When the header may carry several signatures (secret rotation), the separator between them. */
  separator?: string;
  /** Extra credential headers (timestamps…) to remove from `$trigger`, besides `header`. */
  alsoCredentialHeaders?: string[];
}

/**
 * Builds `verify`, `sign` and `credentialHeaders` for the "HMAC over some bytes in some header"
 * shape. Spread it into a plugin.
 *
 * @example
 * ```ts
 * export default definePlugin({
 *   id: "github", name: "GitHub", secret: { label: "Webhook secret", generated: true },
 *   ...hmacRecipe({ header: "X-Hub-Signature-256", algorithm: "sha256", encoding: "hex", prefix: "sha256=" }),
 * });
 * ```
 */
export function hmacRecipe(recipe: HmacRecipe): Required<Pick<InletPlugin, "verify" | "sign" | "credentialHeaders">> {
  const prefix = recipe.prefix ?? "";
  const content = recipe.signedContent ?? ((req) => req.rawBody);
  const keyOf = recipe.key ?? ((secret: string) => secret);
  const digest = (req: PluginRequest | SignInput, ctx: PluginContext): string | null => {
    if (!ctx.secret) return null;
    const signed = content(req, ctx);
    if (signed === null) return null;
    let key: string | Uint8Array;
    try {
      key = keyOf(ctx.secret);
    } catch {
      return null;
    }
    return ctx.hmac(recipe.algorithm, key, signed, recipe.encoding);
  };
  const normalise = (value: string) => (recipe.encoding === "hex" ? value.toLowerCase() : value.replace(/=+$/, ""));
  return {
    verify(req, ctx) {
      const value = req.headers.get(recipe.header);
      if (!value) return false;
      const expected = digest(req, ctx);
      if (expected === null) return false;
      const candidates = recipe.separator ? value.split(recipe.separator) : [value];
      const given = candidates.map((c) => c.trim()).filter((c) => c.startsWith(prefix));
      return timingSafeAnyOf(
        given.map((c) => normalise(c.slice(prefix.length))),
        normalise(expected),
      );
    },
    sign(req, ctx) {
      const expected = digest(req, ctx);
      if (expected === null) throw cannotSign("the secret or a signed part (such as a timestamp header) is missing");
      return { headers: { [recipe.header]: prefix + expected } };
    },
    credentialHeaders: [recipe.header.toLowerCase(), ...(recipe.alsoCredentialHeaders ?? []).map((h) => h.toLowerCase())],
  };
}
