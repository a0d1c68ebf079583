import type { ActivityOutcome, ActivityRecord } from "../records/activity.ts";

/** The Activity row of one request (docs/api.md#activityrow). */
export function activityRow(
  at: { triggerId: string; requestId: string; now: Date /** `now` as ISO text, when the caller has it already */; iso?: string },
  outcome: ActivityOutcome,
  detail: string | null,
  runId: string | null,
): ActivityRecord {
  return { id: Bun.randomUUIDv7(), triggerId: at.triggerId, at: at.iso ?? at.now.toISOString(), requestId: at.requestId, outcome, runId, detail };
}
