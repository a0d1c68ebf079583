import { announce } from "../announce.ts";
import { api } from "../api.ts";
import { h } from "../dom.ts";
import type { DestinationStatus } from "../types.ts";

type State = DestinationStatus["state"];

/** The badge of each state; none while ok. */
const BADGES: Record<State, string | null> = { ok: null, open: "Open", "half-open": "Half-open", paused: "Paused" };
const TITLES: Record<State, string> = {
  ok: "",
  open: "Its target kept failing: its runs wait in the queue until the breaker tries again",
  "half-open": "One run is being tried; a success closes the breaker",
  paused: "Its runs wait in the queue until it is resumed",
};

export interface DestinationStatusControl {
  el: HTMLElement;
  show(status: DestinationStatus): void;
}

/**
 * A saved destination's state inside its group (README "The web panel"): a badge
 * `Open` or `Paused` (none while ok), its queue, and `Pause` or `Resume`. Pausing is an operation,
 * not a setting: it applies at once, without Save.
 */
export function destinationStatus(triggerId: string, name: string): DestinationStatusControl {
  const badge = h("span", { class: "badge", hidden: true });
  const load = h("span", { class: "muted" });
  const button = h("button", { type: "button", class: "secondary small", hidden: true }, "Pause");
  const said = h("span", { class: "muted", role: "status" });
  const el = h("div", { class: "destination-state" }, h("span", { class: "state-label" }, "State: "), badge, load, button, said);
  let paused = false;

  function show(status: DestinationStatus): void {
    const text = BADGES[status.state];
    badge.hidden = text === null;
    badge.textContent = text ?? "";
    badge.className = `badge d-${status.state}`;
    badge.title = TITLES[status.state];
    load.textContent = `${text === null ? "running normally · " : ""}${status.queued} queued, ${status.running} running`;
    paused = status.state === "paused";
    button.textContent = paused ? "Resume" : "Pause";
    button.hidden = false;
  }

  button.addEventListener("click", async () => {
    const action = paused ? "resume" : "pause";
    button.disabled = true;
    said.textContent = "";
    try {
      show(await api<DestinationStatus>("POST", `/api/triggers/${encodeURIComponent(triggerId)}/destinations/${encodeURIComponent(name)}/${action}`));
      announce(action === "pause" ? `${name} paused: its runs wait until resumed` : `${name} resumed`);
    } catch (error) {
      said.textContent = `Not ${action}d: ${(error as Error).message}`;
    } finally {
      button.disabled = false;
    }
  });

  return { el, show };
}
