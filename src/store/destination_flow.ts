// What lets a destination's queued runs start (README "Limits, the breaker and pause"), decided
// the same way by both stores inside their claim transaction: its pause, its breaker, its
// concurrency and its rate limit. A run waiting for any of them stays queued and spends no attempt.
import { okState, type DestinationState } from "../records/destination_state.ts";

/** A destination's limits, from its trigger's settings (the run queue knows them). */
export interface DestinationRules {
  /** Runs at once; null: no limit of its own. */
  concurrency: number | null;
  /** Run starts per second (0.01..10000); absent: no rate limit. */
  perSecond?: number;
  /** What the claiming instance still lets it start now, beside its limits (its share of the run slots); absent: no bound. */
  startsAtMost?: number;
}

/** A destination's rules by trigger and name; null for a trigger or destination that is gone (no limits). */
export type DestinationRulesOf = (triggerId: string, destination: string) => DestinationRules | null;

/** The longest a breaker stays open before it tries again. */
export const MAX_OPEN_MS = 600_000;

/**
 * How many of a destination's runs may start now, and its state if deciding changed it (an open
 * breaker whose time is up becomes half-open: one run is tried).
 */
export function admit(state: DestinationState, rules: DestinationRules | null, running: number, now: number): { room: number; next: DestinationState | null } {
  if (state.paused) return { room: 0, next: null };
  let next: DestinationState | null = null;
  let room = rules?.concurrency == null ? Number.POSITIVE_INFINITY : Math.max(0, rules.concurrency - running);
  if (state.breaker === "open") {
    if (state.openUntilMs !== null && state.openUntilMs > now) return { room: 0, next: null };
    next = { ...state, breaker: "half-open" };
  }
  if ((next ?? state).breaker === "half-open") room = running === 0 ? Math.min(room, 1) : 0;
  if (rules?.perSecond !== undefined) room = Math.min(room, rateRoom(next ?? state, rules.perSecond, now));
  if (rules?.startsAtMost !== undefined) room = Math.min(room, Math.max(0, rules.startsAtMost));
  return { room, next };
}

/**
 * Starts the rate limit still allows now. Starts are counted in windows of at most `perWindow`;
 * a new window opens only a full window's length after the last start of the one before, so no
 * sliding window of that length (one second; below 1/s, `1/perSecond` seconds) ever holds more
 * than `perWindow` starts — however the starts of a window were spread out.
 */
function rateRoom(state: DestinationState, perSecond: number, now: number): number {
  const { windowMs, perWindow } = rateWindow(perSecond);
  if (state.lastStartMs === null || now - state.lastStartMs >= windowMs) return perWindow;
  return Math.max(0, perWindow - state.windowCount);
}

/** A rate as windows: at most max(1, floor(perSecond)) starts a second; below 1, one start per 1/perSecond seconds. */
function rateWindow(perSecond: number): { windowMs: number; perWindow: number } {
  return perSecond >= 1 ? { windowMs: 1000, perWindow: Math.floor(perSecond) } : { windowMs: 1000 / perSecond, perWindow: 1 };
}

/** The state after `started` of its runs started now: counted in the rate limit's window, now its last start. */
export function afterStarts(state: DestinationState, rules: DestinationRules | null, started: number, now: number): DestinationState | null {
  if (started === 0 || rules?.perSecond === undefined) return null;
  const { windowMs } = rateWindow(rules.perSecond);
  const fresh = state.lastStartMs === null || now - state.lastStartMs >= windowMs;
  return { ...state, lastStartMs: now, windowCount: (fresh ? 0 : state.windowCount) + started };
}

/** A breaker's settings: open after `failures` consecutive failed attempts (0: never), for `openSeconds`. */
export interface BreakerRule {
  failures: number;
  openSeconds: number;
}

/**
 * The breaker after one attempt of a run of the destination: a success closes it (and forgets the
 * failures); a failure counts, and opens it once `failures` are reached — for `openSeconds`, then
 * twice as long each time it fails again when half-open, at most 600 s.
 */
export function afterAttempt(state: DestinationState, rule: BreakerRule, ok: boolean, now: number): DestinationState {
  if (rule.failures <= 0) return state;
  if (ok) return { ...state, breaker: "closed", failures: 0, openUntilMs: null, openMs: null, openedAtMs: null };
  const failures = state.failures + 1;
  if (state.breaker === "half-open") {
    const openMs = Math.min(MAX_OPEN_MS, (state.openMs ?? rule.openSeconds * 1000) * 2);
    return { ...state, breaker: "open", failures, openMs, openUntilMs: now + openMs };
  }
  if (state.breaker === "closed" && failures >= rule.failures) {
    const openMs = Math.min(MAX_OPEN_MS, rule.openSeconds * 1000);
    return { ...state, breaker: "open", failures, openMs, openUntilMs: now + openMs, openedAtMs: state.openedAtMs ?? now };
  }
  return { ...state, failures };
}

/** The state of every destination with runs waiting, a row each where it has one. */
export function stateOf(states: Map<string, DestinationState>, triggerId: string, destination: string): DestinationState {
  return states.get(stateKey(triggerId, destination)) ?? okState(triggerId, destination);
}

export const stateKey = (triggerId: string, destination: string) => `${triggerId}\u0000${destination}`;
