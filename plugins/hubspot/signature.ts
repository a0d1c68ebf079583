/**
 * HubSpot's request signatures (developers.hubspot.com, "Validating requests").
 *
 * - v3: base64 HMAC-SHA256, keyed by the app's client secret, of
 *   `method + uri + body + timestamp` (timestamp = `X-HubSpot-Request-Timestamp`, ms).
 * - v1 (legacy): hex SHA-256 (a plain hash, not an HMAC) of `clientSecret + body`.
 * - v2 (legacy): hex SHA-256 of `clientSecret + method + uri + body`.
 *
 * @module
 */
import { concatBytes, type PluginContext } from "../../src/plugins/index.ts";

// HubSpot signs the URI with these escapes decoded (its docs list exactly this set).
const DECODED: Record<string, string> = {
  "%3A": ":",
  "%2F": "/",
  "%3F": "?",
  "%40": "@",
  "%21": "!",
  "%24": "$",
  "%27": "'",
  "%28": "(",
  "%29": ")",
  "%2A": "*",
  "%2C": ",",
  "%3B": ";",
};

/**
 * The request URI as HubSpot signs it: the public URL with the listed escapes decoded.
 *
 * @example
 * ```ts
 * hubspotRequestUri("https://example.com/hook?next=%2Fdone%3Fok"); // "https://example.com/hook?next=/done?ok"
 * ```
 */
export function hubspotRequestUri(url: string): string {
  return url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (escape) => DECODED[escape.toUpperCase()] ?? escape);
}

/** The v3 signature for a request. */
export function hubspotSignatureV3(
  ctx: Pick<PluginContext, "hmac">,
  clientSecret: string,
  method: string,
  url: string,
  rawBody: Uint8Array,
  timestampMs: string,
): string {
  return ctx.hmac("sha256", clientSecret, concatBytes(method, hubspotRequestUri(url), rawBody, timestampMs), "base64");
}

/**
 * A legacy v1/v2 signature. Kept for reference and tests only: the plugin does not accept a
 * request on these alone (see `index.ts`).
 */
export function hubspotLegacySignature(
  ctx: Pick<PluginContext, "hash">,
  version: "v1" | "v2",
  clientSecret: string,
  method: string,
  url: string,
  rawBody: Uint8Array,
): string {
  const source = version === "v1" ? concatBytes(clientSecret, rawBody) : concatBytes(clientSecret, method, url, rawBody);
  return ctx.hash("sha256", source, "hex");
}
