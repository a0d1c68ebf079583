import type { DestinationState } from "../records/destination_state.ts";
import type { BreakerRule } from "./destination_flow.ts";

/** How many of a destination's runs wait and run. */
export interface DestinationLoad {
  triggerId: string;
  destination: string;
  queued: number;
  running: number;
}

/** Destinations' pause, breaker and rate-limit state, shared by every instance (docs/store.md "Roles"). */
export interface DestinationStates {
  /** The state of each destination of a trigger that has one (a destination without one is ok). */
  destinationStates(triggerId: string): Promise<DestinationState[]>;
  /** Every destination state there is (for /metrics and the queue's view of pauses). */
  allDestinationStates(): Promise<DestinationState[]>;
  /** Pauses (its runs stay queued) or resumes a destination; its state after. */
  setPaused(triggerId: string, destination: string, paused: boolean): Promise<DestinationState>;
  /** One attempt of a run of an http destination ended (`ok`: it reached its target): the breaker moves. */
  recordDelivery(triggerId: string, destination: string, rule: BreakerRule, ok: boolean, now: Date): Promise<DestinationState>;
  /** Runs queued and running per destination of a trigger (every trigger's without one). */
  destinationLoads(triggerId?: string): Promise<DestinationLoad[]>;
}
