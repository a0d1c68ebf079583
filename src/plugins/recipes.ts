import { timingSafeAnyOf } from "./any_of.ts";
import { signAsymmetric } from "./asymmetric_key.ts";
import { cannotSign } from "./cannot_sign.ts";
import { declaredHandshake } from "./declared_handshake.ts";
import { concatBytes, hmacRecipe, parseSignatureList } from "./recipe.ts";
import { signedTimestampRecipe } from "./signed_timestamp.ts";
import { formatTimestamp, parseTimestamp, timestampText } from "./timestamp.ts";
import { distinctJoined, parseJson, stringAt, valueAt } from "./json_body.ts";
import { standardWebhooksKey, standardWebhooksRecipe } from "./standard_webhooks.ts";
import { trustOnFirstUse } from "./trust_on_first_use.ts";

/**
 * The recipe helpers as one object, handed to every hook as `ctx.recipes`: a plugin file loaded
 * with `--plugins-dir` cannot import inlet's modules inside the compiled binary, so it reaches
 * the same helpers built-ins import through its context.
 *
 * @example
 * ```ts
 * const SPEC = { header: "x-acme-signature", timestampHeader: "x-acme-timestamp", layout: "{timestamp}.{body}",
 *                signature: { hmac: "sha256", encoding: "hex" }, toleranceSeconds: 300 };
 * export default {
 *   id: "acme", name: "Acme", secret: { label: "Signing secret", generated: false },
 *   verify: (req, ctx) => ctx.recipes.signedTimestamp(SPEC).verify(req, ctx),
 * };
 * ```
 */
export const recipes = {
  signedTimestamp: signedTimestampRecipe,
  hmac: hmacRecipe,
  trustOnFirstUse,
  declaredHandshake,
  concatBytes,
  parseSignatureList,
  timestampText,
  parseTimestamp,
  formatTimestamp,
  cannotSign,
  timingSafeAnyOf,
  signAsymmetric,
  standardWebhooks: standardWebhooksRecipe,
  standardWebhooksKey,
  parseJson,
  valueAt,
  stringAt,
  distinctJoined,
} as const;

export type PluginRecipes = typeof recipes;
