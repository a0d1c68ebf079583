import { announce } from "./announce.ts";
import { api } from "./api.ts";
import { h } from "./dom.ts";
import type { ActivityRow, Run } from "./types.ts";

/**
 * A Filtered request goes through the current filter again; the outcome is said where the
 * button was. One the filter still skips can then be re-delivered without it.
 */
export function filteredReplay(row: ActivityRow, triggerId: string): HTMLElement {
  const path = `/api/triggers/${encodeURIComponent(triggerId)}/activity/${encodeURIComponent(row.id)}/replay`;
  const said = h("span", { class: "replay-result", role: "status" });
  const button = h("button", { type: "button", class: "secondary small", "aria-describedby": `req-${row.id}` }, "Replay");
  const skip = h("button", { type: "button", class: "secondary small", "aria-describedby": `req-${row.id}`, hidden: true }, "Re-deliver without the filter");
  const replay = async (filter: "apply" | "skip", clicked: HTMLButtonElement) => {
    clicked.disabled = true;
    try {
      const answer = await api<Run | { outcome: "filtered" }>("POST", path, { filter });
      const message = "id" in answer ? "Replayed: a run started" : "Still filtered out by the current filter";
      const view = "id" in answer ? h("a", { href: `#/triggers/${encodeURIComponent(triggerId)}/runs/${encodeURIComponent(answer.id)}` }, "View run") : null;
      said.replaceChildren(message, " ", view ?? "");
      // The button clicked may go: focus goes on to the run it started.
      if (view && clicked === skip) view.focus();
      skip.hidden = view !== null;
      announce(message);
    } catch (error) {
      said.textContent = `Not replayed: ${(error as Error).message}`;
    } finally {
      clicked.disabled = false;
    }
  };
  button.addEventListener("click", () => replay("apply", button));
  skip.addEventListener("click", () => replay("skip", skip));
  return h("span", { class: "replay-cell" }, button, said, skip);
}
