import type { SweepCounts } from "./maintenance.ts";

/**
 * Runs `chunk()` (one bounded delete per table, each at most `size` rows) until no table filled
 * its chunk, or `stopped()`; `between` runs between chunks. The deleted rows, summed.
 */
export async function sweepInChunks(
  size: number,
  chunk: () => Promise<SweepCounts>,
  stopped: () => boolean,
  between?: () => Promise<unknown>,
): Promise<SweepCounts> {
  const total: SweepCounts = { dedupKeys: 0, activity: 0, runs: 0, notifications: 0 };
  for (;;) {
    const done = await chunk();
    total.dedupKeys += done.dedupKeys;
    total.activity += done.activity;
    total.runs += done.runs;
    total.notifications += done.notifications;
    if (Math.max(done.dedupKeys, done.activity, done.runs, done.notifications) < size || stopped()) return total;
    await between?.();
  }
}
