import { announce } from "../announce.ts";
import { api, ApiError } from "../api.ts";
import type { Field } from "../field.ts";
import type { Plugin, Trigger } from "../types.ts";
import type { ErrorSummary } from "./error_summary.ts";
import { mergeInto } from "./merge_into.ts";
import { firstInvalid, type Section } from "./section.ts";
import { placeDetails } from "./server_details.ts";

/** The parts of the editor form a Save reads and answers on. */
export interface SaveParts {
  trigger: Trigger | null;
  plugin: Plugin | null;
  name: Field;
  sections: Section[];
  summary: ErrorSummary;
  save: HTMLButtonElement;
  status: HTMLElement;
  onSaved(trigger: Trigger, created: boolean): void;
}

/**
 * The form's submit: the browser-side checks first (the summary and focus on the first problem),
 * then POST (new) or PATCH (saved); a refusal's details go to their fields.
 */
export function saveOnSubmit(p: SaveParts): (event: Event) => Promise<void> {
  const { trigger, name, sections, summary, status } = p;
  const allFields = (): Field[] => [name, ...sections.flatMap((s) => s.fields)];
  // Messages from the last server answer are cleared on the next try; the browser-side checks run again.
  let flaggedByServer: Field[] = [];

  /** Runs the browser-side checks; on a problem, shows the summary and focuses it. Says whether to send. */
  function passesChecks(): boolean {
    const nameProblem = name.control.value.trim() === "" ? "Enter a name." : null;
    name.setError(nameProblem);
    const invalid = firstInvalid(sections) ?? (nameProblem ? name.control : null);
    if (invalid || nameProblem) {
      summary.show(allFields());
      (nameProblem ? name.control : invalid)!.focus();
      return false;
    }
    summary.hide();
    return true;
  }

  function body(): Record<string, unknown> {
    const body: Record<string, unknown> = { name: name.control.value.trim() };
    // Sections that share an object (auth's type and its rollout) merge into it.
    for (const s of sections) mergeInto(body, s.value());
    if (!trigger) body.app = p.plugin ? p.plugin.id : null;
    return body;
  }

  /** A refused Save: each detail on its field (or in the summary), focus on the first. */
  function showRefusal(error: unknown): void {
    if (!(error instanceof ApiError) || error.details.length === 0) {
      summary.show(allFields(), [(error as Error).message]);
      summary.el.focus();
      return;
    }
    const { byField, unplaced } = placeDetails(error.details, name, sections);
    for (const [f, messages] of byField) f.setError(messages.join("\n"));
    flaggedByServer = [...byField.keys()];
    summary.show(allFields(), unplaced);
    const target = [...byField.keys()][0]?.control ?? summary.el;
    target.focus();
  }

  return async (event) => {
    event.preventDefault();
    status.textContent = "";
    for (const f of flaggedByServer) f.setError(null);
    flaggedByServer = [];
    if (!passesChecks()) return;
    const sent = body();
    p.save.disabled = true;
    status.textContent = "Saving…";
    try {
      const saved = trigger
        ? await api<Trigger>("PATCH", `/api/triggers/${encodeURIComponent(trigger.id)}`, sent)
        : await api<Trigger>("POST", "/api/triggers", sent);
      status.textContent = "Saved";
      announce(trigger ? "Saved" : `Created ${saved.name}`);
      p.onSaved(saved, !trigger);
    } catch (error) {
      status.textContent = "";
      showRefusal(error);
    } finally {
      p.save.disabled = false;
    }
  };
}
