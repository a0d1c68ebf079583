import type { Field } from "../field.ts";
import type { WorkflowFields, WorkflowKind } from "./workflow_fields.ts";
import { lines, parseHeaders } from "./workflow_text.ts";

const numberOrUndefined = (f: Field) => (f.control.value.trim() === "" ? undefined : Number(f.control.value.trim()));

/** The workflow of `kind` as the fields describe it: its own fields only. */
function workflowOf(kind: WorkflowKind, f: WorkflowFields): Record<string, unknown> {
  const t = numberOrUndefined(f.timeout);
  switch (kind) {
    case "http": {
      const parsed = parseHeaders(f.headers.control.value);
      const max = numberOrUndefined(f.attempts);
      return {
        kind,
        url: f.url.control.value.trim(),
        ...("headers" in parsed && Object.keys(parsed.headers).length ? { headers: parsed.headers } : {}),
        ...(t === undefined ? {} : { timeoutMs: t }),
        ...(max === undefined ? {} : { retry: { maxAttempts: max } }),
      };
    }
    case "command":
      return { kind, argv: lines(f.argv.control.value), ...(t === undefined ? {} : { timeoutMs: t }) };
    case "script":
      return { kind, source: f.source.control.value, ...(t === undefined ? {} : { timeoutMs: t }) };
    default:
      return { kind: "none" };
  }
}

/** The body's `workflow` and `response`. */
export function workflowValue(f: WorkflowFields): Record<string, unknown> {
  const kind = f.kind.control.value as WorkflowKind;
  const workflow = workflowOf(kind, f);
  const key = f.orderingKey.control.value.trim();
  if (kind !== "none" && key !== "") workflow.orderingKey = key;
  const response: Record<string, unknown> = { mode: f.mode.control.value };
  const rt = numberOrUndefined(f.responseTimeout);
  if (f.mode.control.value === "workflow" && rt !== undefined) response.timeoutMs = rt;
  return { workflow, response };
}
