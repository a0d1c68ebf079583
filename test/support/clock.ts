import { setSystemTime } from "bun:test";

/** The pinned clock a `withPinnedClock` body moves. */
export interface PinnedClock {
  /** The pinned time, epoch milliseconds. */
  now(): number;
  /** Moves the clock to `ms` (epoch milliseconds). */
  set(ms: number): void;
  advance(ms: number): void;
}

/**
 * Runs `body` with `Date` pinned (Bun's `setSystemTime`) at the current time, then gives the real
 * clock back. The in-process test server reads `Date` for a request's arrival time, a rotation's
 * expiry and the JWKS refetch cooldown, so tests move time instead of sleeping through it.
 * Timers and `Bun.sleep` keep real time.
 */
export async function withPinnedClock<T>(body: (clock: PinnedClock) => Promise<T>): Promise<T> {
  let pinned = Date.now();
  const clock: PinnedClock = {
    now: () => pinned,
    set(ms) {
      pinned = ms;
      setSystemTime(new Date(ms));
    },
    advance(ms) {
      clock.set(pinned + ms);
    },
  };
  clock.set(pinned);
  try {
    return await body(clock);
  } finally {
    setSystemTime();
  }
}
