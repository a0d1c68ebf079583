/**
 * A destination's state (README "Limits, the breaker and pause"), kept in the store so every
 * instance sees it and a restart keeps it: paused or not, its breaker, and the window its rate
 * limit counts starts in. A destination without a row is ok: running, closed, no starts counted.
 */
export interface DestinationState {
  triggerId: string;
  destination: string;
  paused: boolean;
  breaker: BreakerPosition;
  /** Consecutive failed attempts (connection error, timeout, 408, 429, 5xx). */
  failures: number;
  /** While open: until when its runs wait. */
  openUntilMs: number | null;
  /** How long the current opening lasts (doubling while it stays broken, at most 600 s). */
  openMs: number | null;
  /** When it opened first since it last worked (for the `destination_open` alert). */
  openedAtMs: number | null;
  /** The rate limit's window: its last start, and how many runs started in it (README "Limits, the breaker and pause"). */
  lastStartMs: number | null;
  windowCount: number;
}

export type BreakerPosition = "closed" | "open" | "half-open";

/** What the API shows of a destination's state. */
export type DestinationStatus = "ok" | "open" | "half-open" | "paused";

export const okState = (triggerId: string, destination: string): DestinationState => ({
  triggerId,
  destination,
  paused: false,
  breaker: "closed",
  failures: 0,
  openUntilMs: null,
  openMs: null,
  openedAtMs: null,
  lastStartMs: null,
  windowCount: 0,
});

/**
 * What the API shows of a destination's state at `now`: an open breaker whose time is up shows
 * `half-open` (its next run is the one tried), though the store moves it only when that run starts.
 */
export function statusOf(state: DestinationState, now = Date.now()): DestinationStatus {
  if (state.paused) return "paused";
  if (state.breaker === "open" && state.openUntilMs !== null && state.openUntilMs <= now) return "half-open";
  return state.breaker === "closed" ? "ok" : state.breaker;
}
