import type { TriggerService } from "../triggers/service.ts";
import type { Arrival } from "./arrival.ts";
import { Ending } from "./ending.ts";
import type { TriggerRecipe } from "./recipe.ts";
import { ERRORS, failure } from "./respond.ts";

/**
 * A provider's URL-verification call (Slack's challenge, Dropbox's GET, Asana's first secret…):
 * answered with the recipe's response and an Activity row `filtered` ("no run"), or `null` when
 * this request is not one. A secret handed over on first contact is stored only while the
 * trigger has none.
 */
export async function answerHandshake(recipe: TriggerRecipe, arrival: Arrival, rawBody: Uint8Array, triggers: Pick<TriggerService, "adoptAppSecret">): Promise<Ending | null> {
  if (!recipe.handshake) return null;
  let answer;
  try {
    answer = await recipe.handshake(arrival, rawBody);
  } catch (error) {
    const app = arrival.trigger.app ?? "the recipe";
    return Ending.stop("auth_failed", `${app} handshake threw: ${(error as Error)?.message ?? String(error)}`, failure(401, ERRORS.auth, arrival.requestId));
  }
  if (!answer) return null;
  let detail = answer.detail;
  if (answer.adoptSecret) {
    const adopted = await triggers.adoptAppSecret(arrival.trigger.id, answer.adoptSecret);
    detail += adopted ? "; the provider's secret was stored" : "; a secret is already set, the offered one was ignored";
  }
  answer.response.headers.set("X-Request-Id", arrival.requestId);
  return Ending.stop("filtered", detail, answer.response);
}
