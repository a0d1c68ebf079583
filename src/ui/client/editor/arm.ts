import { api } from "../api.ts";
import { h, replaceChildren, uid } from "../dom.ts";
import { timeEl } from "../time.ts";
import type { Plugin, Trigger } from "../types.ts";

/** "Armed until <time>" while the window lasts, else "Not armed". */
const armedText = (armedUntil: string | null | undefined) =>
  armedUntil && Date.parse(armedUntil) > Date.now() ? ["Armed until ", timeEl(armedUntil)] : "Not armed";

/**
 * Trust on first use (README "Trust on first use"): a provider that hands its secret over in its
 * first call gets it adopted only while the trigger is armed. Shows until when it is, and `Arm`
 * opens the window again (for a first set-up that came too late, or to replace the secret).
 */
export function armControl(trigger: Trigger, plugin: Plugin): HTMLElement {
  const status = h("p", { role: "status", id: uid("armed") }, armedText(trigger.armedUntil));
  const hint = h(
    "p",
    { class: "hint", id: uid("hint") },
    `${plugin.name} hands its secret over in its first call, and inlet takes it only while the trigger is armed: for 15 minutes after it is created or armed. ` +
      `Arm, then set the webhook up in ${plugin.name} within 15 minutes; a set-up while armed replaces a secret already stored.`,
  );
  const error = h("p", { class: "error", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "secondary small", "aria-describedby": `${status.id} ${hint.id}` }, "Arm");
  button.addEventListener("click", async () => {
    error.textContent = "";
    button.disabled = true;
    try {
      const { armedUntil } = await api<{ armedUntil: string }>("POST", `/api/triggers/${encodeURIComponent(trigger.id)}/arm`);
      replaceChildren(status, armedText(armedUntil));
    } catch (e) {
      error.textContent = `Not armed: ${(e as Error).message}`;
    } finally {
      button.disabled = false;
    }
  });
  return h("div", { class: "field arm" }, h("div", { class: "control-row" }, status, button), hint, error);
}
