/** Polls `check` until it returns a truthy value and returns that; fails after `ms`, naming `what` and the last error. */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, ms = 5000, every = 25): Promise<Exclude<T, false | null | undefined | 0 | "">> {
  // A monotonic clock: tests that pin Date (withPinnedClock) still time out.
  const until = performance.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Exclude<T, false | null | undefined | 0 | "">;
    } catch (error) {
      last = error;
    }
    if (performance.now() > until) throw new Error(`${what}: not within ${ms} ms${last ? ` (last error: ${(last as Error).message})` : ""}`);
    await Bun.sleep(every);
  }
}
