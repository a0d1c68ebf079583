import { h, uid } from "../dom.ts";
import { field } from "../field.ts";
import type { Plugin, Trigger } from "../types.ts";
import { alertsSection } from "./alerts_section.ts";
import { authPart } from "./auth_part.ts";
import { dedupSection } from "./dedup_section.ts";
import { destinationsSection } from "./destinations_section.ts";
import { deleteAction } from "./delete_action.ts";
import { errorSummary } from "./error_summary.ts";
import { filterSection } from "./filter_section.ts";
import { redactionSection } from "./redaction_section.ts";
import { sampleSection } from "./sample_section.ts";
import { saveOnSubmit } from "./save_on_submit.ts";
import { schemaSection } from "./schema_section.ts";
import type { SampleSource, Section } from "./section.ts";
import { sourcesSection } from "./sources_section.ts";
import { showManaged } from "./managed.ts";

export interface EditorOptions {
  /** The saved trigger, or null for a new one. */
  trigger: Trigger | null;
  /** The plugin of an app trigger, or null for a generic Webhook trigger. */
  plugin: Plugin | null;
  initialName?: string;
  onSaved(trigger: Trigger, created: boolean): void;
  onDeleted?(): void;
}

/** The pre-execution regions, in the order a request meets them (an app trigger's app deduplicates). */
function preExecutionRegions(trigger: Trigger | null, plugin: Plugin | null, sample: SampleSource): Section[] {
  const regions: Section[] = [];
  if (!plugin) regions.push(dedupSection(trigger, sample));
  regions.push(
    sourcesSection(trigger),
    schemaSection(trigger),
    filterSection(trigger, sample),
    redactionSection(trigger, sample),
    destinationsSection(trigger, sample),
    alertsSection(trigger),
  );
  return regions;
}

/** The trigger editor form: Authentication Type first, then Name, the mode's fields and the pre-execution regions. */
export function editorForm(o: EditorOptions): { el: HTMLFormElement } {
  const { trigger, plugin } = o;
  const name = field(
    "Name",
    h("input", { type: "text", name: "name", required: true, maxlength: 200, autocomplete: "off", value: trigger?.name ?? o.initialName ?? "" }),
    "Shown in the trigger list.",
  );
  const sample = sampleSection(trigger);
  const summary = errorSummary();
  const auth = authPart(trigger, plugin, name);
  const regions = preExecutionRegions(trigger, plugin, sample);
  const sections = [...auth.sections, ...regions];

  const status = h("span", { class: "save-status", role: "status" });
  const save = h("button", { type: "submit", class: "primary" }, "Save");
  const actions = h("div", { class: "actions" }, save, status);
  if (trigger) actions.append(h("span", { class: "spacer" }), deleteAction(trigger, status, o.onDeleted));

  const form = h(
    "form",
    { class: "editor", novalidate: true, "aria-label": trigger ? `Settings of ${trigger.name}` : "New trigger settings" },
    summary.el,
    h(
      "div",
      { class: "editor-grid" },
      h(
        "div",
        { class: "editor-main" },
        auth.el,
        regions.map((s) => asRegion(s.el)),
      ),
      h("div", { class: "editor-aside" }, sample.el),
    ),
    actions,
  );
  form.addEventListener("submit", saveOnSubmit({ trigger, plugin, name, sections, summary, save, status, onSaved: o.onSaved }));
  // A trigger a config file manages is shown read-only; what still works (Reveal, Arm, Pause, Test transform) stays.
  if (trigger?.managedBy === "config") showManaged(form, [auth.endpoint!, sample.el]);
  return { el: form };
}

/**
 * A settings region (`Alerts`, `Schema`, `Destinations`…) as a region
 * landmark named by its legend, around its fieldset, which stays the group of its fields.
 */
function asRegion(fieldset: HTMLElement): HTMLElement {
  const legend = fieldset.querySelector(":scope > legend");
  if (!legend) return fieldset;
  legend.id ||= uid("region");
  return h("section", { class: "region-landmark", "aria-labelledby": legend.id }, fieldset);
}
