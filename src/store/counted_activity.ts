import type { ActivityRecord } from "../records/activity.ts";

/**
 * Counted Activity rows (see Store.countActivity), shared by both stores: a counted row is the
 * one row of its trigger, outcome, clock minute and reason; its `counted_minute` column is the
 * minute's start, epoch milliseconds.
 */

/** The start of the clock minute of `at` (ISO-8601), epoch milliseconds. */
export const countedMinute = (at: string): number => Math.floor(Date.parse(at) / 60_000) * 60_000;

const countedKey = (row: ActivityRecord) => `${row.triggerId}\u0000${row.outcome}\u0000${countedMinute(row.at)}\u0000${row.detail ?? ""}`;

/**
 * `rows` with those for the same counted row merged into the first of them (its id, time and
 * request id; the counts summed), sorted by that row's key: one statement may not upsert a row
 * twice, and instances that upsert the same rows in one order never wait on each other in a cycle.
 */
export function mergeCounts(rows: ActivityRecord[]): ActivityRecord[] {
  const merged = new Map<string, ActivityRecord>();
  for (const row of rows) {
    const key = countedKey(row);
    const first = merged.get(key);
    if (first) first.count = (first.count ?? 1) + (row.count ?? 1);
    else merged.set(key, { ...row, count: row.count ?? 1 });
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
