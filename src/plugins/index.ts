/**
 * What plugin authors import: the types, `definePlugin` and the recipe helpers.
 * @module
 */
export type * from "./types.ts";
export { definePlugin } from "./define.ts";
export { concatBytes, hmacRecipe, parseSignatureList, type HmacRecipe } from "./recipe.ts";
export { pluginContext } from "./context.ts";
export type { PluginFixture } from "./fixture.ts";
export { authenticateAppRequest } from "./authenticate.ts";
export type { AuthResult } from "../auth/auth_result.ts";
