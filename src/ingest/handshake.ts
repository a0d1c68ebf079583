import { ProviderUnavailable } from "../plugins/provider_errors.ts";
import type { TriggerService } from "../triggers/service.ts";
import type { Arrival } from "./arrival.ts";
import { Ending } from "./ending.ts";
import type { SenderProtocol } from "./sender_protocol.ts";
import { notArmedReason } from "./not_armed.ts";
import { ERRORS, failure } from "../net/answers.ts";

/**
 * A provider's URL-verification call (Slack's challenge, Dropbox's GET, Asana's first secret…):
 * answered with the protocol's response and an Activity row `filtered` ("no run"), or `null` when
 * this request is not one. A secret handed over in the handshake is stored only while the
 * trigger is armed (README "Trust on first use"); otherwise the handshake gets the uniform 401,
 * unless it offers the secret already stored (a retried set-up). `caller` names the client's
 * address for the Activity row of an adoption.
 */
export async function answerHandshake(
  protocol: SenderProtocol,
  arrival: Arrival,
  rawBody: Uint8Array,
  triggers: Pick<TriggerService, "adoptAppSecret">,
  caller: () => string,
): Promise<Ending | null> {
  if (!protocol.handshake) return null;
  let answer;
  try {
    answer = await protocol.handshake(arrival, rawBody);
  } catch (error) {
    // The provider's keys or confirmation URL did not answer: a 503 (see the pipeline), not a refusal.
    if (error instanceof ProviderUnavailable) throw error;
    const app = arrival.trigger.app ?? "the recipe";
    return Ending.stop("auth_failed", `${app} handshake threw: ${(error as Error)?.message ?? String(error)}`, failure(401, ERRORS.auth, arrival.requestId));
  }
  if (!answer) return null;
  let detail = answer.detail;
  if (answer.adoptSecret) {
    const adoption = await triggers.adoptAppSecret(arrival.trigger.id, answer.adoptSecret, arrival.now);
    if (adoption === "not_armed") return Ending.stop("auth_failed", notArmedReason(arrival.trigger), failure(401, ERRORS.auth, arrival.requestId));
    detail +=
      adoption === "adopted"
        ? `; the provider's secret was stored, handed over from ${caller()}; the trigger is no longer armed`
        : "; it offered the secret already stored: nothing changed";
  }
  answer.response.headers.set("X-Request-Id", arrival.requestId);
  return Ending.stop("filtered", detail, answer.response);
}
