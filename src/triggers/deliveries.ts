import { DEFAULT_DESTINATION, destinationsOf, type Deliveries, type DestinationConfig } from "../records/destination.ts";
import type { WorkflowConfig } from "../records/workflow.ts";
import type { ValidationDetail } from "./validation_error.ts";

/**
 * Where a trigger's requests go (README "Destinations"): `destinations`, or `workflow`, the
 * shorthand for one destination named `default`. This file decides which of the two a save keeps.
 */

const NONE: WorkflowConfig = { kind: "none" };

/**
 * The workflow a trigger shows as `workflow`: its only destination's, when that one is named
 * `default` (the shorthand, or a list of just that one); else undefined (the key is left out).
 */
export function shorthandWorkflow(trigger: Deliveries): WorkflowConfig | undefined {
  const all = destinationsOf(trigger);
  return all.length === 1 && all[0].name === DEFAULT_DESTINATION ? all[0].workflow : undefined;
}

/**
 * What a save keeps: `destinations` given replace the list whole (stored as given, `workflow`
 * following the `default` destination's); `workflow` given is the shorthand (no list); neither
 * keeps the current ones.
 */
export function chosenDeliveries(body: { workflow?: WorkflowConfig; destinations?: DestinationConfig[] }, current?: Deliveries): Deliveries {
  if (body.destinations !== undefined)
    return { workflow: shorthandWorkflow({ workflow: NONE, destinations: body.destinations }) ?? NONE, destinations: body.destinations };
  if (body.workflow !== undefined) return { workflow: body.workflow };
  if (!current) return { workflow: NONE };
  return current.destinations ? { workflow: current.workflow, destinations: current.destinations } : { workflow: current.workflow };
}

/**
 * Problems with the shape of a save before any field is looked at: both forms at once, or a
 * workflow without `kind` (a change to the current workflow's fields) on a trigger that has no
 * single workflow to change.
 */
export function deliveryShapeErrors(body: Record<string, unknown>, current?: Deliveries): ValidationDetail[] {
  if (body.workflow !== undefined && body.destinations !== undefined) {
    return [{ path: "/destinations", message: "send workflow or destinations, not both: workflow is the shorthand for one destination named default" }];
  }
  const changes = body.workflow;
  const partial = changes !== null && typeof changes === "object" && !Array.isArray(changes) && !("kind" in changes);
  if (partial && current && shorthandWorkflow(current) === undefined) {
    return [
      {
        path: "/workflow/kind",
        message:
          "this trigger has destinations, not the one workflow a change without kind applies to: change destinations (the list is replaced whole), or send a whole workflow (with kind) to replace them",
      },
    ];
  }
  return [];
}
