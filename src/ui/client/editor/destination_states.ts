import { api } from "../api.ts";
import { poll } from "../poll.ts";
import type { DestinationStatus } from "../types.ts";
import type { DestinationGroup } from "./destination_group.ts";

/** How often a saved trigger's destination states are read again while its settings are shown. */
const EVERY_MS = 5000;

/**
 * Keeps each saved destination's state in its group: read now, then every few seconds (a breaker
 * opens on its own), until `host` leaves the page — the editor has no other end of life.
 */
export function watchDestinationStates(triggerId: string, host: Element, groups: () => DestinationGroup[]): void {
  let stop = () => {};
  // Started once the form is in the page (it is placed right after it is built).
  setTimeout(() => {
    stop = poll(async () => {
      if (!host.isConnected) return stop();
      const states = await api<DestinationStatus[]>("GET", `/api/triggers/${encodeURIComponent(triggerId)}/destinations`);
      for (const g of groups()) {
        const state = states.find((s) => s.name === g.savedName);
        if (state) g.status?.show(state);
      }
    }, EVERY_MS);
  });
}
