import { conditional, h, type Conditional } from "../dom.ts";
import type { Field } from "../field.ts";
import type { Section } from "./section.ts";
import { KIND_HINTS, MODE_HINTS, workflowFields, type WorkflowFields, type WorkflowKind, type WorkflowSaved } from "./workflow_fields.ts";
import { workflowProblems } from "./workflow_problems.ts";
import { workflowValue } from "./workflow_value.ts";

/** The field a server detail's path (`/workflow/…`, `/response/…`, as the shorthand names them) belongs to, or null. */
function workflowFieldFor(path: string, f: WorkflowFields): Field | null {
  if (path.startsWith("/workflow/url")) return f.url;
  if (path.startsWith("/workflow/headers")) return f.headers;
  if (path.startsWith("/workflow/retry")) return f.attempts;
  if (path.startsWith("/workflow/argv")) return f.argv;
  if (path.startsWith("/workflow/source")) return f.source;
  if (path.startsWith("/workflow/timeoutMs")) return f.timeout;
  if (path.startsWith("/workflow/orderingKey")) return f.orderingKey;
  if (path.startsWith("/workflow")) return f.kind;
  if (path.startsWith("/response/timeoutMs")) return f.responseTimeout;
  if (path.startsWith("/response")) return f.mode;
  return null;
}

/**
 * A Workflow group, one in each destination's group (README "The web panel"): what a run does
 * (kind and its fields) and whether the caller waits for this destination's answer.
 */
export function workflowSection(saved: WorkflowSaved): Section {
  const f = workflowFields(saved);
  const { kind, mode, responseTimeout } = f;
  const byKind: Record<WorkflowKind, Field[]> = {
    none: [],
    http: [f.url, f.headers, f.attempts, f.timeout, f.orderingKey],
    command: [f.argv, f.timeout, f.orderingKey],
    script: [f.source, f.timeout, f.orderingKey],
  };
  const all = [f.url, f.headers, f.attempts, f.argv, f.source, f.timeout, f.orderingKey];
  const slots = new Map<Field, Conditional>(all.map((field) => [field, conditional(field.wrap)]));
  const current = () => kind.control.value as WorkflowKind;
  // A kind's own fields are in the form only while it is chosen; the response timeout only in workflow mode, which needs a kind.
  const place = () => {
    for (const field of all) slots.get(field)!.set(byKind[current()].includes(field));
    kind.hint.textContent = KIND_HINTS[current()];
    const answering = current() !== "none";
    mode.control.querySelector<HTMLOptionElement>('option[value="workflow"]')!.disabled = !answering;
    if (!answering && mode.control.value === "workflow") mode.control.value = "immediate";
    slots.get(responseTimeout)!.set(mode.control.value === "workflow");
  };
  slots.set(responseTimeout, conditional(responseTimeout.wrap));
  kind.control.addEventListener("change", place);
  mode.control.addEventListener("change", () => {
    mode.hint.textContent = MODE_HINTS[mode.control.value as "immediate" | "workflow"];
    place();
  });

  const el = h(
    "fieldset",
    { class: "subregion" },
    h("legend", null, "Workflow"),
    kind.wrap,
    ...all.map((field) => slots.get(field)!.anchor),
    mode.wrap,
    slots.get(responseTimeout)!.anchor,
  );
  place();

  return {
    el,
    value: () => workflowValue(f),
    validate() {
      let first: HTMLElement | null = null;
      for (const [field, problem] of workflowProblems(f)) {
        field.setError(problem);
        if (problem) first ??= field.control;
      }
      return first;
    },
    fields: [kind, ...all, mode, responseTimeout],
    fieldFor: (path) => workflowFieldFor(path, f),
  };
}
