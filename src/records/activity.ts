export type ActivityOutcome = "run" | "deduplicated" | "filtered" | "auth_failed" | "rejected" | "error";

/** Monitoring → Activity (docs/api.md#activityrow, without the derived label). */
export interface ActivityRecord {
  id: string;
  triggerId: string;
  at: string;
  requestId: string;
  outcome: ActivityOutcome;
  runId: string | null;
  detail: string | null;
  /**
   * How many requests the row stands for: 1 (or absent, when writing) for a request's own row;
   * a counted row of refusals (README "Security") stands for every refusal of its trigger,
   * outcome, clock minute and reason past the minute's own rows, and its `requestId` is the first's.
   */
  count?: number;
  /** A `run` row of a request delivered to several destinations: every run, `runId` first. */
  runIds?: string[];
  /** A `filtered` row keeps its request (the redacted `$trigger`) for replay; nothing else does. */
  request?: unknown;
}
