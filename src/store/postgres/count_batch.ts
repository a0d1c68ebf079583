import type { ActivityRecord } from "../../records/activity.ts";
import { countedMinute, mergeCounts } from "../counted_activity.ts";

/**
 * Counted Activity rows in one statement (see Store.countActivity): each is inserted as it is, or
 * its count is added to the row of its trigger, outcome, clock minute and reason that is already
 * there — written by this instance or another (the unique index `activity_counted` serialises
 * them). `mergeCounts` gives each such row once, in the key order every instance uses.
 */
export const COUNT_BATCH_SQL = `
INSERT INTO activity AS a (id, trigger_id, at, at_ms, request_id, outcome, detail, count, counted_minute)
SELECT id, trigger_id, at, at_ms, request_id, outcome, detail, count, counted_minute
FROM json_to_recordset($1::text::json) AS x(id text, trigger_id text, at text, at_ms bigint, request_id text, outcome text, detail text, count int, counted_minute bigint, i int)
ORDER BY i
ON CONFLICT (trigger_id, outcome, counted_minute, coalesce(detail, '')) WHERE counted_minute IS NOT NULL
DO UPDATE SET count = a.count + EXCLUDED.count`;

/** The statement's parameter: `rows` merged, one item per counted row. */
export function countBatch(rows: ActivityRecord[]): string {
  return JSON.stringify(
    mergeCounts(rows).map((row, i) => ({
      i,
      id: row.id,
      trigger_id: row.triggerId,
      at: row.at,
      at_ms: Date.parse(row.at),
      request_id: row.requestId,
      outcome: row.outcome,
      detail: row.detail,
      count: row.count,
      counted_minute: countedMinute(row.at),
    })),
  );
}
