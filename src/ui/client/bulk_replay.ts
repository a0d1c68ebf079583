import { announce } from "./announce.ts";
import { api } from "./api.ts";
import { h, uid } from "./dom.ts";
import type { BulkReplayResult } from "./types.ts";

/** The most one confirmation replays (the API's `limit` default and bound). */
const AT_MOST = 1000;

export interface BulkReplayWording {
  /** The button, and the dialog's title. */
  label: string;
  /** What the dry run counts: ["failed run", "failed runs"]. */
  counted: [string, string];
  /** What is replayed: ["run", "runs"]. */
  items: [string, string];
  /** The confirm button's verb ("Replay"), and the result's past tense ("Replayed"). */
  verb: [string, string];
  /** Said in the dialog under the count. */
  hint: string;
  /** A switch in the dialog, sent as `body[option.field] = option.on` when checked. */
  option?: { label: string; field: string; on: unknown; off: unknown };
}

/**
 * A bulk replay in the panel (CONTRACT §6.1): the button asks the API for a dry run, a dialog says
 * how many requests match and asks to confirm, and the replay's outcome is announced. `body` is the
 * bulk replay's selection (`source`, `status`…); `done` runs after a replay.
 */
export function bulkReplay(triggerId: string, body: Record<string, unknown>, wording: BulkReplayWording, done: () => unknown): { status: HTMLElement; button: HTMLElement; dialog: HTMLElement } {
  const path = `/api/triggers/${encodeURIComponent(triggerId)}/replay`;
  const [one, many] = wording.counted;
  const item = (n: number) => `${n} ${n === 1 ? wording.items[0] : wording.items[1]}`;
  const [verb, past] = wording.verb;
  const titleId = uid("bulk-title");
  const questionId = uid("bulk-question");
  const status = h("span", { role: "status", class: "muted" });
  const button = h("button", { type: "button", class: "secondary small" }, wording.label);
  const question = h("p", { id: questionId });
  const option = wording.option ? h("input", { type: "checkbox", id: uid("bulk-option") }) : null;
  const confirm = h("button", { type: "button", class: "primary" }, verb);
  const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
  const dialog = h(
    "dialog",
    { class: "confirm", "aria-labelledby": titleId, "aria-describedby": questionId },
    h("h3", { id: titleId }, wording.label),
    question,
    h("p", { class: "hint" }, wording.hint),
    option ? h("p", { class: "check" }, option, " ", h("label", { for: option.id }, wording.option!.label)) : "",
    h("div", { class: "actions" }, confirm, cancel),
  );
  const selection = () => (option && wording.option ? { ...body, [wording.option.field]: option.checked ? wording.option.on : wording.option.off } : body);
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "";
    try {
      const dry = await api<BulkReplayResult>("POST", path, { ...selection(), dryRun: true });
      if (dry.matched === 0) {
        status.textContent = `No ${many} to ${verb.toLowerCase()}.`;
        return;
      }
      const n = Math.min(dry.matched, AT_MOST);
      question.textContent =
        dry.matched > n
          ? `${dry.matched} ${many} match; the oldest ${n} will be ${past.toLowerCase()}.`
          : `${dry.matched} ${dry.matched === 1 ? `${one} matches` : `${many} match`}. ${verb} ${dry.matched === 1 ? "it" : "them"}?`;
      confirm.textContent = `${verb} ${item(n)}`;
      dialog.showModal();
    } catch (error) {
      status.textContent = `Could not count ${many}: ${(error as Error).message}`;
    } finally {
      button.disabled = false;
    }
  });
  cancel.addEventListener("click", () => dialog.close());
  confirm.addEventListener("click", async () => {
    confirm.disabled = true;
    try {
      const result = await api<BulkReplayResult>("POST", path, { ...selection(), limit: AT_MOST });
      dialog.close();
      // A filtered request the current filter still skips starts no run.
      const skipped = Math.min(result.matched, AT_MOST) - result.replayed;
      status.textContent = `${past} ${item(result.replayed)}${skipped > 0 ? `; ${skipped} still filtered out` : ""}.`;
      announce(status.textContent);
      await done();
    } catch (error) {
      question.textContent = `Not ${past.toLowerCase()}: ${(error as Error).message}`;
    } finally {
      confirm.disabled = false;
    }
  });
  return { status, button, dialog };
}
