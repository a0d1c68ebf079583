import { queryStartProblem, wholeNumberProblem, type Field } from "../field.ts";
import type { WorkflowFields, WorkflowKind } from "./workflow_fields.ts";
import { headersProblem, lines } from "./workflow_text.ts";

/** A whole number within bounds, or the problem with it; "" is "use the default". */
const wholeNumber = (f: Field, min: number, max: number) => wholeNumberProblem(f.control.value, min, max);

/** What the browser can tell is wrong with each field of the Workflow region (null: nothing), in the fields' order. */
export function workflowProblems(f: WorkflowFields): Map<Field, string | null> {
  const k = f.kind.control.value as WorkflowKind;
  return new Map<Field, string | null>([
    [f.url, k === "http" && !/^https?:\/\/\S+$/.test(f.url.control.value.trim()) ? "Enter the http:// or https:// URL to POST to." : null],
    [f.headers, k === "http" ? headersProblem(f.headers.control.value) : null],
    [f.attempts, k === "http" ? wholeNumber(f.attempts, 1, 20) : null],
    [f.argv, k === "command" && lines(f.argv.control.value).length === 0 ? "Enter the program to run, for example /usr/local/bin/deploy.sh." : null],
    [f.source, k === "script" && f.source.control.value.trim() === "" ? "Enter the script's source." : null],
    [f.timeout, k === "none" ? null : wholeNumber(f.timeout, k === "script" ? 1 : 100, k === "command" ? 3_600_000 : k === "script" ? 60_000 : 300_000)],
    [f.responseTimeout, f.mode.control.value === "workflow" ? wholeNumber(f.responseTimeout, 100, 300_000) : null],
    [f.orderingKey, k !== "none" ? queryStartProblem(f.orderingKey.control.value, "$.customer.id") : null],
  ]);
}
