import type { Arrival } from "./arrival.ts";
import { Ending, type Step } from "./ending.ts";
import type { TriggerRecipe } from "./recipe.ts";
import { ERRORS, failure } from "./respond.ts";

declare const verifiedBrand: unique symbol;

/**
 * A request whose credential was checked: only {@link authenticateRequest} makes one, so a stage
 * that takes a `Verified` cannot be reached by a forged request.
 */
export interface Verified {
  readonly [verifiedBrand]: true;
  readonly arrival: Arrival;
  readonly headers: Headers;
  /** The body exactly as received and as signed. */
  readonly rawBody: Uint8Array;
}

/**
 * Authentication: the recipe checks the credential over the raw bytes, before anything is parsed
 * or stored. Every failure is the same 401; the reason goes to the owner's Activity row.
 */
export async function authenticateRequest(recipe: TriggerRecipe, arrival: Arrival, rawBody: Uint8Array): Promise<Step<Verified>> {
  const result = await recipe.authenticate(arrival, rawBody);
  if (!result.ok) return Ending.stop("auth_failed", result.reason, failure(401, ERRORS.auth, arrival.requestId));
  return { arrival, headers: arrival.headers, rawBody } as Verified;
}
