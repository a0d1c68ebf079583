import { announce } from "./announce.ts";
import { api } from "./api.ts";
import { h, uid } from "./dom.ts";
import { switchField } from "./field.ts";
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
  /** A switch in the dialog (off at each opening), sent as `body[option.field] = option.on` when on. */
  option?: { label: string; hint: string; field: string; on: unknown; off: unknown };
  /** Says what became of those of the `n` sent that started no run, given the selection sent. */
  shortfall: (missing: number, selection: Record<string, unknown>) => string;
}

/**
 * A bulk replay in the panel (docs/api.md#replay): the button asks the API for a dry run, a dialog says
 * how many requests match and asks to confirm, and the replay's outcome is announced. `body` is the
 * bulk replay's selection (`source`, `status`…); `done` runs after a replay.
 */
export function bulkReplay(
  triggerId: string,
  body: Record<string, unknown>,
  wording: BulkReplayWording,
  done: () => unknown,
): { status: HTMLElement; button: HTMLElement; dialog: HTMLElement } {
  const path = `/api/triggers/${encodeURIComponent(triggerId)}/replay`;
  const [one, many] = wording.counted;
  const item = (n: number) => `${n} ${n === 1 ? wording.items[0] : wording.items[1]}`;
  const [verb, past] = wording.verb;
  const titleId = uid("bulk-title");
  const questionId = uid("bulk-question");
  const status = h("span", { role: "status", class: "muted" });
  const button = h("button", { type: "button", class: "secondary small" }, wording.label);
  const question = h("p", { id: questionId });
  const option = wording.option ? { wording: wording.option, ...switchField(wording.option.label, false, wording.option.hint) } : null;
  const confirm = h("button", { type: "button", class: "primary" }, verb);
  const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
  const dialog = h(
    "dialog",
    { class: "confirm", "aria-labelledby": titleId, "aria-describedby": questionId },
    h("h3", { id: titleId }, wording.label),
    question,
    h("p", { class: "hint" }, wording.hint),
    option ? option.wrap : "",
    h("div", { class: "actions" }, confirm, cancel),
  );
  const selection = (): Record<string, unknown> =>
    option ? { ...body, [option.wording.field]: option.control.checked ? option.wording.on : option.wording.off } : body;
  /** How many the dialog offered: what the confirmation replays at most. */
  let offered = 0;
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "";
    // Each opening starts with the switch off.
    if (option) {
      option.control.checked = false;
      option.control.dispatchEvent(new Event("change"));
    }
    try {
      const dry = await api<BulkReplayResult>("POST", path, { ...selection(), dryRun: true });
      if (dry.matched === 0) {
        status.textContent = `No ${many} to ${verb.toLowerCase()}.`;
        return;
      }
      const n = Math.min(dry.matched, AT_MOST);
      offered = n;
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
      const sent = selection();
      // No more than the dialog offered, even if more match by now.
      const result = await api<BulkReplayResult>("POST", path, { ...sent, limit: offered });
      dialog.close();
      const missing = Math.min(result.matched, offered) - result.replayed;
      status.textContent = `${past} ${item(result.replayed)}${missing > 0 ? `; ${wording.shortfall(missing, sent)}` : ""}.`;
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
