import { expect, test } from "bun:test";
import { okState, type DestinationState } from "../records/destination_state.ts";
import { admit, afterAttempt, afterStarts, type DestinationRules } from "./destination_flow.ts";

const fresh = (): DestinationState => okState("t", "d");

/** Starts runs whenever the rules let them, at the given times (a run each), as a claim loop would; returns the start times. */
function startAt(times: number[], rules: DestinationRules): number[] {
  let state = fresh();
  const started: number[] = [];
  for (const now of times) {
    const { room, next } = admit(state, rules, 0, now);
    if (next) state = next;
    if (room < 1) continue;
    started.push(now);
    state = afterStarts(state, rules, 1, now) ?? state;
  }
  return started;
}

/** The most starts any half-open window of `windowMs` holds. */
function mostInAnyWindow(starts: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0; i < starts.length; i++) {
    let n = 0;
    for (let j = i; j < starts.length && starts[j] - starts[i] < windowMs; j++) n++;
    most = Math.max(most, n);
  }
  return most;
}

test("rate limit: a burst of perSecond, then nothing until a second after the window's last start", () => {
  const rules = { concurrency: null, perSecond: 5 };
  let state = fresh();
  expect(admit(state, rules, 0, 1_000).room).toBe(5);
  state = afterStarts(state, rules, 3, 1_000)!;
  expect(admit(state, rules, 0, 1_500).room).toBe(2);
  state = afterStarts(state, rules, 2, 1_500)!;
  expect(admit(state, rules, 0, 2_100).room).toBe(0);
  // A second after the last start (1.5 s), not after the first (1 s).
  expect(admit(state, rules, 0, 2_499).room).toBe(0);
  expect(admit(state, rules, 0, 2_500).room).toBe(5);
});

test("rate limit: no sliding second ever holds more than floor(perSecond) starts, however the runs arrive", () => {
  // Arrivals every 7..163 ms (a claim each), for a minute: starts spread inside windows.
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const times: number[] = [];
  for (let now = 0; now < 60_000; now += 7 + Math.floor(random() * 157)) times.push(now);
  for (const perSecond of [1, 2, 2.5, 5, 10]) {
    const starts = startAt(times, { concurrency: null, perSecond });
    expect(mostInAnyWindow(starts, 1_000)).toBeLessThanOrEqual(Math.floor(perSecond));
    // And it still delivers: at least half the rate over the minute.
    expect(starts.length).toBeGreaterThan(30 * Math.floor(perSecond));
  }
  // The old counting (fixed windows from each window's first start) fails this: starts at 0.9 s
  // and then 1.0 s, 1.0 s would put 3 in one second at perSecond 2.
  expect(mostInAnyWindow(startAt([0, 900, 1_000, 1_001, 1_002], { concurrency: null, perSecond: 2 }), 1_000)).toBe(2);
});

test("rate limit below 1 a second: one start per 1/perSecond seconds", () => {
  const starts = startAt(
    Array.from({ length: 200 }, (_, i) => i * 100),
    { concurrency: null, perSecond: 0.2 },
  );
  expect(starts).toEqual([0, 5_000, 10_000, 15_000]);
});

test("no rate limit: starts are not counted", () => {
  expect(afterStarts(fresh(), { concurrency: 2 }, 3, 0)).toBeNull();
  expect(afterStarts(fresh(), { concurrency: null, perSecond: 1 }, 0, 0)).toBeNull();
});

test("concurrency: the room is what the running runs leave; no limit of its own when null or gone", () => {
  expect(admit(fresh(), { concurrency: 3 }, 1, 0).room).toBe(2);
  expect(admit(fresh(), { concurrency: 3 }, 5, 0).room).toBe(0);
  expect(admit(fresh(), { concurrency: null }, 100, 0).room).toBe(Number.POSITIVE_INFINITY);
  expect(admit(fresh(), null, 100, 0).room).toBe(Number.POSITIVE_INFINITY);
});

test("a paused destination starts nothing", () => {
  expect(admit({ ...fresh(), paused: true }, { concurrency: 5 }, 0, 0)).toEqual({ room: 0, next: null });
});

test("breaker: opens after the failures, lets one run try when its time is up, doubles while it stays broken, at most 600 s", () => {
  const rule = { failures: 2, openSeconds: 30 };
  let state = afterAttempt(fresh(), rule, false, 0);
  expect(state.breaker).toBe("closed");
  state = afterAttempt(state, rule, false, 1_000);
  expect(state).toMatchObject({ breaker: "open", openUntilMs: 31_000, openMs: 30_000, openedAtMs: 1_000 });
  expect(admit(state, { concurrency: 5 }, 0, 30_999)).toEqual({ room: 0, next: null });
  const tried = admit(state, { concurrency: 5 }, 0, 31_000);
  expect(tried.room).toBe(1);
  expect(tried.next?.breaker).toBe("half-open");
  // Half-open with its one run running: nothing else starts.
  expect(admit(tried.next!, { concurrency: 5 }, 1, 31_001).room).toBe(0);
  state = afterAttempt(tried.next!, rule, false, 32_000);
  expect(state).toMatchObject({ breaker: "open", openMs: 60_000, openUntilMs: 92_000, openedAtMs: 1_000 });
  for (let i = 0; i < 6; i++) state = afterAttempt({ ...state, breaker: "half-open" }, rule, false, 100_000);
  expect(state.openMs).toBe(600_000);
  state = afterAttempt({ ...state, breaker: "half-open" }, rule, true, 200_000);
  expect(state).toMatchObject({ breaker: "closed", failures: 0, openUntilMs: null, openMs: null, openedAtMs: null });
});

test("breaker off (failures 0): attempts change nothing", () => {
  const state = fresh();
  expect(afterAttempt(state, { failures: 0, openSeconds: 30 }, false, 0)).toBe(state);
});
