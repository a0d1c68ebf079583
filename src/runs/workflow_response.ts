import { ack, ERRORS, failure } from "../net/answers.ts";
import type { RunRecord } from "../records/run.ts";
import { DEFAULT_WORKFLOW_RESPONSE_TIMEOUT_MS, type TriggerRecord } from "../records/trigger.ts";
import { answerHeaders } from "./answer_headers.ts";
import type { RunQueue } from "./queue.ts";

/**
 * Workflow response mode: waits for the run (already started by the queue) up to the trigger's
 * `response.timeoutMs` and answers with what the workflow authored. Failures are opaque to the
 * caller (the run's `error` says why): 502 when an http target stayed unreachable, else 500;
 * 504 past the timeout, while the run goes on and is recorded. The answer carries `nosniff` and
 * a sandboxing CSP: whatever it says it is, a browser opening it gets no script on inlet's origin;
 * it sets no cookie there either, and a header that cannot be sent is left out (see answerHeaders).
 */
export async function workflowResponse(queue: RunQueue, trigger: TriggerRecord, run: RunRecord, requestId: string): Promise<Response> {
  const outcome = await queue.waitFor(run.id, trigger.response.timeoutMs ?? DEFAULT_WORKFLOW_RESPONSE_TIMEOUT_MS);
  if (!outcome) return failure(504, ERRORS.timedOut, requestId);
  // Its transform chose not to deliver (null): nothing was authored, the request was accepted.
  if (outcome.status === "skipped") return ack(requestId);
  if (!outcome.answer) return failure(outcome.failureStatus ?? 500, ERRORS.workflowFailed, requestId);
  const headers = answerHeaders(outcome.answer.headers);
  headers.set("X-Request-Id", requestId);
  // The answer is for the caller's program, served from the panel's origin: a browser must not
  // sniff it into HTML, nor run what a workflow wrote as HTML with the panel's privileges.
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Security-Policy", "sandbox");
  return new Response(outcome.answer.body, { status: outcome.answer.status, headers });
}
