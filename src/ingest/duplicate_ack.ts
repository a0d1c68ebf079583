import { ack } from "../net/answers.ts";

/** The answer to a duplicate: `X-Service-Deduplicated: true` in workflow response mode (the original response is never replayed). */
export function duplicateAck(trigger: { response: { mode: string } }, requestId: string): Response {
  return trigger.response.mode === "workflow" ? ack(requestId, { "X-Service-Deduplicated": "true" }) : ack(requestId);
}
