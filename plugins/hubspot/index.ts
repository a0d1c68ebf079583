/**
 * HubSpot (webhooks, workflow webhooks, CRM cards): the v3 signature,
 * `X-HubSpot-Signature-v3: base64 HMAC-SHA256(clientSecret, method + uri + body + timestamp)`
 * with `X-HubSpot-Request-Timestamp` in milliseconds. The URI is the public URL inlet was
 * configured with (`--base-url`), never one rebuilt from `Host`.
 *
 * Legacy v1/v2 signatures are not accepted on their own. HubSpot sends v3 on every request and
 * keeps v1/v2 only for backwards compatibility; neither covers the timestamp, so accepting them
 * would let anyone who captured one delivery strip its v3 headers and replay it for ever.
 */
import {
  definePlugin,
  distinctJoined,
  ExactNumber,
  parseJson,
  type PluginContext,
  type PluginRequest,
  signedTimestampRecipe,
  stringAt,
  valueAt,
} from "../../src/plugins/index.ts";
import { hubspotRequestUri } from "./signature.ts";

/** The events of a webhooks-API delivery (a JSON array of up to 100), or `null` for any other body. */
function events(rawBody: Uint8Array): unknown[] | null {
  const body = parseJson(rawBody);
  return Array.isArray(body) ? body : null;
}

export default definePlugin({
  id: "hubspot",
  name: "HubSpot",
  secret: { label: "App client secret", generated: false },
  ...signedTimestampRecipe({
    header: "X-HubSpot-Signature-v3",
    timestampHeader: "X-HubSpot-Request-Timestamp",
    unit: "ms",
    layout: ({ method, url, body, timestamp }) => [method, hubspotRequestUri(url), body, timestamp],
    signature: { hmac: "sha256", encoding: "base64" },
    // The SDK and the docs: reject a timestamp older than five minutes.
    toleranceSeconds: 300,
    alsoCredentialHeaders: ["x-hubspot-signature"],
  }),
  /**
   * HubSpot sends no delivery id, and a retry changes the body (`attemptNumber`), so neither a
   * header nor the body hash can catch retries. The batch's events, each identified by
   * (subscriptionId, eventId, occurredAt) — `eventId` alone is not guaranteed unique — give a key
   * that is the same on every attempt: SHA-256 of the sorted list.
   */
  deliveryId(req: PluginRequest, ctx: PluginContext) {
    const list = events(req.rawBody);
    if (list === null || list.length === 0) return null;
    const keys: string[] = [];
    for (const item of list) {
      const parts = ["subscriptionId", "eventId", "occurredAt"].map((key) => valueAt(item, key));
      // An eventId beyond 2^53 is an ExactNumber: joined with every digit, so two events are never one key.
      if (parts.some((part) => typeof part !== "number" && typeof part !== "string" && !(part instanceof ExactNumber))) return null;
      keys.push(parts.join(":"));
    }
    return ctx.hash("sha256", keys.sort().join(","), "hex");
  },
  // HubSpot retries a failed batch up to 10 times over the next 24 hours.
  dedupWindowSeconds: 172800,
  // The distinct `subscriptionType`s of the batch, comma-separated (usually just one).
  event(_req, body) {
    return Array.isArray(body) ? distinctJoined(body.map((item) => stringAt(item, "subscriptionType"))) : null;
  },
});
