import type { DestinationConfig } from "../records/destination.ts";
import type { ValidationDetail } from "./validation_error.ts";
import { workflowErrors } from "./workflow_rules.ts";

/** The expression checks a destination needs (the sandbox's and the JSONPath engine's). */
interface DestinationChecks {
  checkQuery(source: string): string | null;
  checkFilter(source: string): string | null;
}

/**
 * The rules of a trigger's destinations beyond their schema (README "Destinations"): unique
 * names, each workflow checked as the trigger's own is, each filter's syntax, a breaker only
 * where there is an http target to watch, and at most one destination answering the caller.
 */
export function destinationErrors(destinations: readonly DestinationConfig[], checks: DestinationChecks): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  const named = new Set<string>();
  let responder: string | undefined;
  destinations.forEach((d, i) => {
    const path = `/destinations/${i}`;
    if (named.has(d.name)) out.push({ path: `${path}/name`, message: `another destination is named ${JSON.stringify(d.name)}: names are unique in a trigger` });
    named.add(d.name);
    out.push(...workflowErrors(d.workflow, `${path}/workflow`, checks.checkQuery));
    if (d.filter) {
      const problem = checks.checkFilter(d.filter.expression);
      if (problem) out.push({ path: `${path}/filter/expression`, message: problem });
    }
    if (d.breaker && d.workflow.kind !== "http") {
      out.push({
        path: `${path}/breaker`,
        message: `the breaker watches http targets only: this destination's workflow is ${JSON.stringify(d.workflow.kind)}`,
      });
    }
    if (d.respond) {
      if (responder !== undefined)
        out.push({
          path: `${path}/respond`,
          message: `only one destination answers the caller, and ${JSON.stringify(responder)} already does: set respond on one destination`,
        });
      else responder = d.name;
    }
  });
  return out;
}
