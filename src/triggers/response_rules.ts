import { respondingDestination, type Deliveries } from "../records/destination.ts";
import type { ResponseConfig } from "../records/trigger.ts";
import type { ValidationDetail } from "./validation_error.ts";

const NEEDS_AN_ANSWER = 'the workflow response mode needs a workflow that answers (kind "http", "command" or "script")';

/**
 * In the workflow response mode the caller gets what one workflow authored (README "Workflow
 * response mode"): the trigger's own, the only destination's, or the one with `respond: true`
 * among several; that one must answer.
 */
export function responseModeErrors(s: Deliveries & { response: ResponseConfig }): ValidationDetail[] {
  if (s.response.mode !== "workflow") return [];
  if (!s.destinations) return s.workflow.kind === "none" ? [{ path: "/response/mode", message: NEEDS_AN_ANSWER }] : [];
  const answering = respondingDestination(s);
  if (!answering) {
    return [
      {
        path: "/response/mode",
        message: "the workflow response mode with several destinations needs the one that answers the caller: set respond: true on it",
      },
    ];
  }
  if (answering.workflow.kind === "none") {
    return [
      { path: "/response/mode", message: `${NEEDS_AN_ANSWER}: destination ${JSON.stringify(answering.name)}, which answers the caller, has kind "none"` },
    ];
  }
  return [];
}
