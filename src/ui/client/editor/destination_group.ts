import { h } from "../dom.ts";
import type { Field } from "../field.ts";
import type { Destination, Trigger } from "../types.ts";
import { destinationFields } from "./destination_fields.ts";
import type { DestinationProblems, DestinationText } from "./destination_problems.ts";
import { destinationStatus, type DestinationStatusControl } from "./destination_status.ts";
import type { DestinationDraft } from "./destinations_body.ts";
import type { SampleSource } from "./section.ts";
import { transformTest } from "./test_transform.ts";
import { workflowSection } from "./workflow_section.ts";

/** One destination in the Destinations region: a group named by the destination's name. */
export interface DestinationGroup {
  el: HTMLFieldSetElement;
  remove: HTMLButtonElement;
  /** Its state and Pause/Resume, for a destination the trigger has saved under this name. */
  status: DestinationStatusControl | null;
  /** The name it was saved under, or null for one added since. */
  savedName: string | null;
  text(): DestinationText;
  draft(): DestinationDraft;
  /** The trigger's `response` as its Workflow group says it (used from the group that answers the caller). */
  response(): Record<string, unknown>;
  /** The browser's checks of its Workflow group; returns the first control with a problem. */
  validate(problems: DestinationProblems): HTMLElement | null;
  fields: Field[];
  /** The field of a server detail's path below `/destinations/<i>` (or the shorthand's `/workflow…`, `/response…`). */
  fieldFor(subpath: string): Field | null;
  /** Prefixes its fields' names in the error summary with its own, when there are several. */
  nameFields(prefixed: boolean): void;
}

export interface GroupOptions {
  /** The destination as saved, or a new one's starting values. */
  saved: Partial<Destination>;
  /** The trigger's response as this destination shows it: its own mode only if it answers. */
  response?: Trigger["response"];
  /** The saved trigger's id, to show the state of a saved destination. */
  triggerId?: string;
  sample: SampleSource;
}

const numberOrUndefined = (text: string) => (text.trim() === "" ? undefined : Number(text.trim()));

export function destinationGroup(o: GroupOptions): DestinationGroup {
  const f = destinationFields(o.saved);
  const workflow = workflowSection({ workflow: o.saved.workflow, response: o.response });
  const mode = workflow.fieldFor("/response/mode")!;
  const savedName = o.triggerId && o.saved.name ? o.saved.name : null;
  const status = savedName ? destinationStatus(o.triggerId!, savedName) : null;
  const legend = h("legend");
  const remove = h("button", { type: "button", class: "secondary small" }, "Remove destination");
  const named = () => f.name.control.value.trim() || "New destination";
  f.name.control.addEventListener("input", () => (legend.textContent = named()));
  legend.textContent = named();

  const el = h(
    "fieldset",
    { class: "destination" },
    legend,
    status?.el,
    f.name.wrap,
    workflow.el,
    f.filter.wrap,
    f.transform.wrap,
    transformTest(f.transform, o.sample),
    h("div", { class: "destination-limits" }, f.rateLimit.wrap, f.concurrency.wrap),
    h("div", { class: "destination-actions" }, remove),
  );
  const fields = [f.name, ...workflow.fields, f.filter, f.transform, f.rateLimit, f.concurrency];
  const labels = new Map(fields.map((x) => [x, x.label]));

  return {
    el,
    remove,
    status,
    savedName,
    text: () => ({
      name: f.name.control.value,
      rateLimit: f.rateLimit.control.value,
      concurrency: f.concurrency.control.value,
      transform: f.transform.control.value,
      answers: mode.control.value === "workflow",
    }),
    draft() {
      const expression = f.filter.control.value.trim();
      const source = f.transform.control.value;
      return {
        name: f.name.control.value.trim(),
        workflow: workflow.value().workflow as Record<string, unknown>,
        answers: mode.control.value === "workflow",
        ...(expression ? { filter: { mode: f.filterMode.value as "include" | "exclude", expression } } : {}),
        ...(source.trim() ? { transform: source } : {}),
        rateLimit: numberOrUndefined(f.rateLimit.control.value),
        concurrency: numberOrUndefined(f.concurrency.control.value),
        ...(o.saved.workflow ? { saved: o.saved as Destination } : {}),
      };
    },
    response: () => workflow.value().response as Record<string, unknown>,
    validate(problems) {
      const shown: Array<[Field, string | null]> = [
        [f.name, problems.name],
        [f.transform, problems.transform],
        [f.rateLimit, problems.rateLimit],
        [f.concurrency, problems.concurrency],
      ];
      for (const [x, problem] of shown) x.setError(problem);
      const invalidWorkflow = workflow.validate();
      // After the Workflow group's own checks (none on the Response mode): a second answering destination is said there.
      if (problems.answers) mode.setError(problems.answers);
      const firstOf = (...xs: Array<[Field, string | null]>) => xs.find(([, p]) => p)?.[0].control ?? null;
      return firstOf(shown[0]) ?? invalidWorkflow ?? firstOf([mode, problems.answers], ...shown.slice(1));
    },
    fields,
    fieldFor(subpath) {
      if (subpath === "" || subpath.startsWith("/name")) return f.name;
      if (subpath.startsWith("/workflow") || subpath.startsWith("/response")) return workflow.fieldFor(subpath);
      if (subpath.startsWith("/respond")) return mode;
      if (subpath.startsWith("/filter")) return f.filter;
      if (subpath.startsWith("/transform")) return f.transform;
      if (subpath.startsWith("/rateLimit")) return f.rateLimit;
      if (subpath.startsWith("/concurrency")) return f.concurrency;
      return null;
    },
    nameFields(prefixed) {
      for (const [x, label] of labels) x.label = prefixed ? `${named()}: ${label}` : label;
    },
  };
}
