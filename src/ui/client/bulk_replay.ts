import { announce } from "./announce.ts";
import { api } from "./api.ts";
import { h, uid } from "./dom.ts";
import { switchField } from "./field.ts";
import { type BulkReplayOffer, bulkReplayOffer } from "./bulk_replay_offer.ts";
import type { BulkReplayResult } from "./types.ts";

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

/** A part of the dialog that narrows what is replayed (e.g. which destinations); the count follows it. */
export interface BulkReplayChoice {
  el: HTMLElement;
  /** The fields it adds to the selection, or null while nothing is chosen (nothing to replay). */
  fields(): Record<string, unknown> | null;
  /** Back to its default: at each opening. */
  reset(): void;
  /** `changed` runs whenever it is changed. */
  onChange(changed: () => void): void;
}

/**
 * A bulk replay in the panel (docs/api.md#replay): the button asks the API for a dry run, a dialog says
 * how many requests match and asks to confirm, and the replay's outcome is announced. `body` is the
 * bulk replay's selection (`source`, `status`…); `done` runs after a replay; `choice`, when given,
 * narrows the selection from inside the dialog, which counts again on each change.
 */
export function bulkReplay(
  triggerId: string,
  body: Record<string, unknown>,
  wording: BulkReplayWording,
  done: () => unknown,
  choice?: BulkReplayChoice,
): { status: HTMLElement; button: HTMLElement; dialog: HTMLElement } {
  const path = `/api/triggers/${encodeURIComponent(triggerId)}/replay`;
  const many = wording.counted[1];
  const [verb, past] = wording.verb;
  const item = (n: number) => `${n} ${n === 1 ? wording.items[0] : wording.items[1]}`;
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
    choice ? choice.el : "",
    option ? option.wrap : "",
    h("div", { class: "actions" }, confirm, cancel),
  );
  /** What is sent, or null while the choice holds nothing. */
  const selection = (): Record<string, unknown> | null => {
    const chosen = choice ? choice.fields() : {};
    if (!chosen) return null;
    const switched = option ? { [option.wording.field]: option.control.checked ? option.wording.on : option.wording.off } : {};
    return { ...body, ...switched, ...chosen };
  };
  /** How many the dialog offered: what the confirmation replays at most (0: nothing to confirm). */
  let offered = 0;
  /** Which dry run is the latest: an earlier one's answer, arriving late, is dropped. */
  let asked = 0;
  let replaying = false;
  const show = (offer: BulkReplayOffer) => {
    offered = offer.offered;
    question.textContent = offer.question;
    confirm.textContent = offer.confirm;
    confirm.disabled = replaying || offered === 0;
  };
  const nothing = (said: string): BulkReplayOffer => ({ offered: 0, question: said, confirm: verb });
  /** Counts what is chosen now with a dry run; null when a later count (or nothing chosen) overtook it. */
  const count = async (sent: Record<string, unknown>): Promise<BulkReplayResult | null> => {
    const mine = ++asked;
    confirm.disabled = true;
    try {
      const dry = await api<BulkReplayResult>("POST", path, { ...sent, dryRun: true });
      return mine === asked ? dry : null;
    } catch (error) {
      if (mine === asked) throw error;
      return null;
    }
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "";
    // Each opening starts with the switch off and everything chosen.
    if (option) {
      option.control.checked = false;
      option.control.dispatchEvent(new Event("change"));
    }
    choice?.reset();
    try {
      const dry = await count(selection() ?? body);
      if (!dry) return;
      if (dry.matched === 0) {
        status.textContent = `No ${many} to ${verb.toLowerCase()}.`;
        return;
      }
      show(bulkReplayOffer(dry.matched, wording));
      dialog.showModal();
    } catch (error) {
      status.textContent = `Could not count ${many}: ${(error as Error).message}`;
    } finally {
      button.disabled = false;
    }
  });
  choice?.onChange(async () => {
    const sent = selection();
    if (!sent) {
      // Nothing chosen: nothing to count or confirm (the choice says why); a count under way is moot.
      asked++;
      return show(nothing(`No ${many} chosen.`));
    }
    try {
      const dry = await count(sent);
      if (dry) show(bulkReplayOffer(dry.matched, wording));
    } catch (error) {
      show(nothing(`Could not count ${many}: ${(error as Error).message}`));
    }
  });
  cancel.addEventListener("click", () => dialog.close());
  confirm.addEventListener("click", async () => {
    const sent = selection();
    if (!sent || offered === 0) return;
    replaying = true;
    confirm.disabled = true;
    try {
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
      replaying = false;
      confirm.disabled = offered === 0;
    }
  });
  return { status, button, dialog };
}
