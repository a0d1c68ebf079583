import { ExactNumber } from "../json/index.ts";

/** JSON nesting deeper than this is refused before anything enters QuickJS (docs/processing-order.md#limits-and-defaults). */
export const MAX_NESTING_DEPTH = 256;

/**
 * Whether `value` nests objects/arrays more than `limit` levels deep (`{}` is depth 1).
 * QuickJS's JSON.parse recurses on the host's native stack, which no sandbox limit covers
 * (docs/processing-order.md#the-sandbox): a deep enough document corrupts the runtime.
 */
export function exceedsDepth(value: unknown, limit: number = MAX_NESTING_DEPTH): boolean {
  // An ExactNumber is a number, written as one: no level of its own.
  if (value === null || typeof value !== "object" || value instanceof ExactNumber) return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) return value.some((item) => exceedsDepth(item, limit - 1));
  for (const key in value) {
    if (exceedsDepth((value as Record<string, unknown>)[key], limit - 1)) return true;
  }
  return false;
}
