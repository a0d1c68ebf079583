import { announce } from "../announce.ts";
import { api } from "../api.ts";
import { h, uid } from "../dom.ts";
import type { Trigger } from "../types.ts";

/** The saved trigger's Delete button and its warning; a failure is said in the form's `status`. */
export function deleteAction(trigger: Trigger, status: HTMLElement, onDeleted?: () => void): HTMLElement {
  const hint = h("span", { class: "hint", id: uid("delete-hint") }, "Deletes at once: the URL answers 404 from then on.");
  const del = h("button", { type: "button", class: "danger", "aria-describedby": hint.id }, "Delete");
  del.addEventListener("click", async () => {
    del.disabled = true;
    try {
      await api("DELETE", `/api/triggers/${encodeURIComponent(trigger.id)}`);
      announce(`Deleted ${trigger.name}`);
      onDeleted?.();
    } catch (error) {
      status.textContent = `Not deleted: ${(error as Error).message}`;
      del.disabled = false;
    }
  });
  return h("span", { class: "delete" }, del, hint);
}
