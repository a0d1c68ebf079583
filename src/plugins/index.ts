/**
 * What plugin authors import: the types, `definePlugin` and the recipe helpers.
 * @module
 */
export type * from "./types.ts";
export { definePlugin } from "./define.ts";
export { concatBytes, hmacRecipe, parseSignatureList, type HmacRecipe } from "./recipe.ts";
export { signedTimestampRecipe, type SignedTimestampRecipe, type SignatureAlgorithm, type SignedParts, type SignedTimestampHooks } from "./signed_timestamp.ts";
export { trustOnFirstUse, type TrustOnFirstUse } from "./trust_on_first_use.ts";
export { declaredHandshake, type DeclaredHandshake, type HandshakeCondition, type HandshakeReply } from "./declared_handshake.ts";
export { handshakeAnswer, hostHandshake } from "./host_handshake.ts";
export { parseTimestamp, timestampText, formatTimestamp, type TimestampUnit } from "./timestamp.ts";
export { cannotSign, CannotSignError } from "./cannot_sign.ts";
export { timingSafeAnyOf } from "./any_of.ts";
export { signAsymmetric } from "./asymmetric_key.ts";
export { standardWebhooksRecipe, standardWebhooksKey, type StandardWebhooksOptions, type StandardWebhooksSecret } from "./standard_webhooks.ts";
export { parseJson, valueAt, stringAt, distinctJoined } from "./json_body.ts";
export { ExactNumber } from "../json/index.ts";
export { recipes, type PluginRecipes } from "./recipes.ts";
export { pluginContext, type PluginHost } from "./context.ts";
export { settingsWithDefaults, resolveAppSettings } from "./app_settings.ts";
export { ProviderFetch } from "./provider_fetch.ts";
export { ProviderFetchRefused, ProviderUnavailable } from "./provider_errors.ts";
export { fetchRuleProblem } from "./fetch_rule.ts";
export { verifyRsa } from "./verify_rsa.ts";
export type { PluginFixture } from "./fixture.ts";
export { authenticateAppRequest } from "./authenticate.ts";
export type { AuthResult } from "../auth/auth_result.ts";
