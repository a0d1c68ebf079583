/**
 * The Standard Webhooks recipe, shared by `standard-webhooks`, `svix`, `clerk`, `resend` and
 * `openai` (docs/plugins.md#built-in-providers).
 *
 * - headers `<prefix>id`, `<prefix>timestamp` (unix seconds), `<prefix>signature`;
 * - signed bytes `${id}.${timestamp}.${rawBody}`, HMAC-SHA256, base64;
 * - the signature header is a space-separated list (`v1,<b64> v1,<b64> v1a,<b64>`): any `v1`
 *   entry that matches passes, other versions are ignored (secret rotation sends several);
 * - ±300 s tolerance on the timestamp (enforced by the host);
 * - the id is the same on every retry, so it is the delivery id.
 *
 * @module
 */
import { timingSafeAnyOf } from "./any_of.ts";
import { cannotSign } from "./cannot_sign.ts";
import { concatBytes } from "./recipe.ts";
import { formatTimestamp, parseTimestamp, timestampText } from "./timestamp.ts";
import type { InletPlugin, PluginContext, PluginRequest, SignInput } from "./types.ts";

/**
 * How the pasted secret becomes the HMAC key.
 *
 * - `"standard"` (the `standardwebhooks` and `svix` libraries): strip `whsec_`, base64-decode the
 *   rest (also without the prefix). A secret without the prefix that is not base64 at all is used
 *   as raw UTF-8 bytes: that is the library's `{format: "raw"}` mode, which a sender using raw keys
 *   needs, and no base64 secret can be mistaken for it.
 * - `"openai"` (openai-node `webhooks.ts`): base64-decode only with the `whsec_` prefix, otherwise
 *   the secret's UTF-8 bytes.
 */
export type StandardWebhooksSecret = "standard" | "openai";

export interface StandardWebhooksOptions {
  /** Header prefixes in the order they are looked for, e.g. `["svix-", "webhook-"]`. `sign()` uses the first. */
  prefixes: readonly string[];
  secret: StandardWebhooksSecret;
}

/** The tolerance every Standard Webhooks library applies, in both directions. */
const STANDARD_WEBHOOKS_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = "whsec_";
const encoder = new TextEncoder();

/**
 * The HMAC key for a pasted secret, or `null` when the secret cannot be one (empty, or a
 * `whsec_` secret whose rest is not base64).
 *
 * @example
 * ```ts
 * standardWebhooksKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "standard", ctx); // 24 bytes
 * standardWebhooksKey("my-raw-secret", "openai", ctx);                            // UTF-8 bytes
 * ```
 */
export function standardWebhooksKey(secret: string, treatment: StandardWebhooksSecret, ctx: Pick<PluginContext, "base64">): Uint8Array | null {
  if (secret === "") return null;
  let key: Uint8Array;
  if (secret.startsWith(SECRET_PREFIX)) {
    try {
      key = ctx.base64.decode(secret.slice(SECRET_PREFIX.length));
    } catch {
      return null;
    }
  } else if (treatment === "openai") {
    key = encoder.encode(secret);
  } else {
    try {
      key = ctx.base64.decode(secret);
    } catch {
      key = encoder.encode(secret);
    }
  }
  return key.length > 0 ? key : null;
}

/**
 * Builds `verify`, `sign`, `timestamp`, `toleranceSeconds`, `deliveryId` and
 * `credentialHeaders` for a Standard Webhooks sender. Spread it into a plugin.
 *
 * @example
 * ```ts
 * export default definePlugin({
 *   id: "clerk", name: "Clerk", secret: { label: "Signing secret (whsec_…)", generated: false },
 *   ...standardWebhooksRecipe({ prefixes: ["svix-"], secret: "standard" }),
 *   dedupWindowSeconds: 172800,
 * });
 * ```
 */
export function standardWebhooksRecipe(
  options: StandardWebhooksOptions,
): Required<Pick<InletPlugin, "verify" | "sign" | "timestamp" | "toleranceSeconds" | "deliveryId" | "credentialHeaders">> {
  const { prefixes } = options;
  if (prefixes.length === 0) throw new TypeError("standardWebhooksRecipe needs at least one header prefix");
  // Per header, the first prefix present wins (what the svix library does for white-labelled `webhook-*`).
  const header = (req: PluginRequest | SignInput, name: "id" | "timestamp" | "signature"): string | null => {
    for (const prefix of prefixes) {
      const value = req.headers.get(prefix + name);
      if (value !== null && value !== "") return value;
    }
    return null;
  };
  const expectedSignature = (id: string, timestamp: string, rawBody: Uint8Array, ctx: PluginContext): string | null => {
    const key = standardWebhooksKey(ctx.secret, options.secret, ctx);
    if (key === null) return null;
    return ctx.hmac("sha256", key, concatBytes(id, ".", timestamp, ".", rawBody), "base64");
  };

  return {
    verify(req, ctx) {
      const id = header(req, "id");
      const timestamp = timestampText(header(req, "timestamp"));
      const signatures = header(req, "signature");
      if (id === null || timestamp === null || signatures === null) return false;
      const expected = expectedSignature(id, timestamp, req.rawBody, ctx);
      if (expected === null) return false;
      const v1 = signatures.split(" ").filter((entry) => entry.startsWith("v1,"));
      return timingSafeAnyOf(
        v1.map((entry) => entry.slice("v1,".length)),
        expected,
      );
    },
    timestamp(req) {
      return parseTimestamp(header(req, "timestamp"));
    },
    toleranceSeconds: STANDARD_WEBHOOKS_TOLERANCE_SECONDS,
    deliveryId: (req) => header(req, "id"),
    sign(req, ctx) {
      const id = header(req, "id") ?? `msg_${crypto.randomUUID().replaceAll("-", "")}`;
      const timestamp = formatTimestamp(ctx.now);
      const signature = expectedSignature(id, timestamp, req.rawBody, ctx);
      if (signature === null) throw cannotSign("the secret is empty or not a valid whsec_ secret");
      const prefix = prefixes[0];
      return {
        headers: { [`${prefix}id`]: id, [`${prefix}timestamp`]: timestamp, [`${prefix}signature`]: `v1,${signature}` },
      };
    },
    credentialHeaders: prefixes.map((prefix) => `${prefix}signature`),
  };
}
