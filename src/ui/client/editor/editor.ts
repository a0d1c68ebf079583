import { api, ApiError } from "../api.ts";
import { announce } from "../announce.ts";
import { h, options, replaceChildren, show, uid } from "../dom.ts";
import { field, type Field } from "../field.ts";
import type { Plugin, Trigger, ValidationDetail } from "../types.ts";
import { appSection } from "./app_section.ts";
import { authSection } from "./auth_section.ts";
import { dedupSection } from "./dedup_section.ts";
import { endpointSection } from "./endpoint.ts";
import { filterSection } from "./filter_section.ts";
import { redactionSection } from "./redaction_section.ts";
import { alertsSection } from "./alerts_section.ts";
import { sampleSection } from "./sample_section.ts";
import { schemaSection } from "./schema_section.ts";
import { sourcesSection } from "./sources_section.ts";
import { workflowSection } from "./workflow_section.ts";
import { firstInvalid, type Section } from "./section.ts";
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

/** The trigger editor form: Authentication Type first, then Name, the mode's fields and the pre-execution regions. */
export function editorForm(o: EditorOptions): { el: HTMLFormElement } {
  const { trigger, plugin } = o;
  const name = field("Name", h("input", { type: "text", name: "name", required: true, maxlength: 200, autocomplete: "off", value: trigger?.name ?? o.initialName ?? "" }), "Shown in the trigger list.");
  const sample = sampleSection(trigger);
  const sections: Section[] = [];
  const regions: Section[] = [];
  const summary = h("div", { class: "error-summary", role: "alert", tabindex: "-1", hidden: true });
  const pending = h("p", { class: "note", hidden: true });

  const headingId = uid("auth-heading");
  const authPart = h("section", { class: "card", "aria-labelledby": headingId }, h("h2", { id: headingId }, plugin ? `${plugin.name} app trigger` : "Authentication"));
  if (plugin) {
    const type = field("Authentication Type", h("select", { name: "authType", disabled: true }, options([["none", "none"]], "none")), `${plugin.name} calls are verified by ${plugin.name}'s own signature recipe, not by a generic type.`);
    const app = appSection(trigger, plugin);
    sections.push(app);
    authPart.append(type.wrap, name.wrap, app.el);
  } else {
    const auth = authSection(trigger);
    sections.push(auth);
    authPart.append(auth.typeField.wrap, name.wrap, auth.rest);
    if (trigger) {
      const saved = JSON.stringify(auth.value());
      const savedType = auth.typeField.control.value;
      auth.onChange(() => {
        // Only a new type gets a new secret: a change of methods or of a header name keeps it.
        const newType = auth.typeField.control.value !== savedType;
        pending.textContent = `Save to apply the authentication change: the curl command${newType ? " and secret" : ""} below show the saved settings.${newType ? " A new Authentication Type gets a new secret." : ""}`;
        show(pending, JSON.stringify(auth.value()) !== saved);
      });
    }
  }
  const endpoint = trigger ? endpointSection(trigger, plugin) : null;
  if (endpoint) authPart.append(pending, endpoint);
  else authPart.append(h("p", { class: "note" }, "The URL, the generated secret and a ready-to-run curl command appear once you save."));

  if (!plugin) regions.push(dedupSection(trigger, sample));
  regions.push(sourcesSection(trigger), schemaSection(trigger), filterSection(trigger, sample), redactionSection(trigger, sample), workflowSection(trigger), alertsSection(trigger));
  sections.push(...regions);

  const status = h("span", { class: "save-status", role: "status" });
  const save = h("button", { type: "submit", class: "primary" }, "Save");
  const actions = h("div", { class: "actions" }, save, status);
  if (trigger) {
    const hint = h("span", { class: "hint", id: uid("delete-hint") }, "Deletes at once: the URL answers 404 from then on.");
    const del = h("button", { type: "button", class: "danger", "aria-describedby": hint.id }, "Delete");
    del.addEventListener("click", async () => {
      del.disabled = true;
      try {
        await api("DELETE", `/api/triggers/${encodeURIComponent(trigger.id)}`);
        announce(`Deleted ${trigger.name}`);
        o.onDeleted?.();
      } catch (error) {
        status.textContent = `Not deleted: ${(error as Error).message}`;
        del.disabled = false;
      }
    });
    actions.append(h("span", { class: "spacer" }), h("span", { class: "delete" }, del, hint));
  }

  const form = h(
    "form",
    { class: "editor", novalidate: true, "aria-label": trigger ? `Settings of ${trigger.name}` : "New trigger settings" },
    summary,
    h("div", { class: "editor-grid" }, h("div", { class: "editor-main" }, authPart, regions.map((s) => asRegion(s.el))), h("div", { class: "editor-aside" }, sample.el)),
    actions,
  );

  const allFields = (): Field[] => [name, ...sections.flatMap((s) => s.fields)];
  /** The field a server detail belongs to, and its message as shown there. */
  function place(d: ValidationDetail): { field: Field; message: string } | null {
    if (d.path === "/name") return { field: name, message: d.message };
    for (const s of sections) {
      const f = s.fieldFor(d.path);
      if (f) return { field: f, message: s.explain?.(d) ?? d.message };
    }
    return null;
  }

  function showSummary(extra: string[] = []) {
    const invalid = allFields().filter((f) => f.error());
    if (invalid.length === 0 && extra.length === 0) {
      summary.hidden = true;
      return;
    }
    replaceChildren(
      summary,
      h("p", { class: "summary-title" }, "The trigger was not saved:"),
      h(
        "ul",
        null,
        invalid.map((f) => h("li", null, h("button", { type: "button", class: "link-button", onClick: () => f.control.focus() }, `${f.label}: ${f.error()}`))),
        extra.map((message) => h("li", null, message)),
      ),
    );
    summary.hidden = false;
  }

  // Messages from the last server answer are cleared on the next try; the browser-side checks run again.
  let flaggedByServer: Field[] = [];

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    for (const f of flaggedByServer) f.setError(null);
    flaggedByServer = [];
    const nameProblem = name.control.value.trim() === "" ? "Enter a name." : null;
    name.setError(nameProblem);
    const invalid = firstInvalid(sections) ?? (nameProblem ? name.control : null);
    if (invalid || nameProblem) {
      showSummary();
      (nameProblem ? name.control : invalid)!.focus();
      return;
    }
    summary.hidden = true;
    const body: Record<string, unknown> = { name: name.control.value.trim() };
    for (const s of sections) Object.assign(body, s.value());
    if (!trigger) body.app = plugin ? plugin.id : null;
    save.disabled = true;
    status.textContent = "Saving…";
    try {
      const saved = trigger
        ? await api<Trigger>("PATCH", `/api/triggers/${encodeURIComponent(trigger.id)}`, body)
        : await api<Trigger>("POST", "/api/triggers", body);
      status.textContent = "Saved";
      announce(trigger ? "Saved" : `Created ${saved.name}`);
      o.onSaved(saved, !trigger);
    } catch (error) {
      status.textContent = "";
      if (!(error instanceof ApiError) || error.details.length === 0) {
        showSummary([(error as Error).message]);
        summary.focus();
        return;
      }
      const byField = new Map<Field, string[]>();
      const unplaced: string[] = [];
      for (const d of error.details) {
        const placed = place(d);
        if (placed) byField.set(placed.field, [...(byField.get(placed.field) ?? []), placed.message]);
        else unplaced.push(d.path ? `${d.path}: ${d.message}` : d.message);
      }
      for (const [f, messages] of byField) f.setError(messages.join("\n"));
      flaggedByServer = [...byField.keys()];
      showSummary(unplaced);
      const target = [...byField.keys()][0]?.control ?? summary;
      target.focus();
    } finally {
      save.disabled = false;
    }
  });

  if (trigger?.managedBy === "config") showManaged(form, [endpoint!, sample.el]);
  return { el: form };
}

/**
 * A settings region (CONTRACT §6.7 names them: `Alerts`, `Schema`, `Workflow`…) as a region
 * landmark named by its legend, around its fieldset, which stays the group of its fields.
 */
function asRegion(fieldset: HTMLElement): HTMLElement {
  const legend = fieldset.querySelector(":scope > legend");
  if (!legend) return fieldset;
  legend.id ||= uid("region");
  return h("section", { class: "region-landmark", "aria-labelledby": legend.id }, fieldset);
}
