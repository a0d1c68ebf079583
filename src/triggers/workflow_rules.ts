import { headerNameProblem, headerValueProblem } from "../net/header_field.ts";
import type { WorkflowConfig } from "../records/workflow.ts";
import type { ValidationDetail } from "./validation_error.ts";

/** The one check a workflow needs from the JSONPath engine: `null` when the query is fine, else what to fix. */
type QueryCheck = (source: string) => string | null;

/**
 * The rules of one workflow — the trigger's own (`/workflow`) or a destination's
 * (`/destinations/<i>/workflow`) — beyond its schema: headers fetch would refuse, and the
 * ordering key's query syntax.
 */
export function workflowErrors(workflow: WorkflowConfig, path: string, checkQuery: QueryCheck): ValidationDetail[] {
  const out = workflow.kind === "http" ? headerErrors(workflow.headers ?? {}, `${path}/headers`) : [];
  const orderingKey = "orderingKey" in workflow ? workflow.orderingKey : undefined;
  if (orderingKey !== undefined) {
    const problem = checkQuery(orderingKey);
    if (problem) out.push({ path: `${path}/orderingKey`, message: problem });
  }
  return out;
}

/**
 * Headers an http workflow sends on every run: one that fetch would refuse (a control character,
 * a character past Latin-1, a name that is not a token) would fail every run, so it is refused
 * where the API, the CLI and configuration files all save.
 */
function headerErrors(headers: Record<string, string>, path: string): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const at = `${path}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const nameProblem = headerNameProblem(name);
    if (nameProblem) out.push({ path: at, message: `the header name ${nameProblem}` });
    const valueProblem = headerValueProblem(value);
    if (valueProblem) out.push({ path: at, message: `the value ${valueProblem}` });
  }
  return out;
}
