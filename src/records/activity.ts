export type ActivityOutcome = "run" | "deduplicated" | "filtered" | "auth_failed" | "rejected" | "error";

/** Monitoring → Activity (CONTRACT §3 ActivityRow, without the derived label). */
export interface ActivityRecord {
  id: string;
  triggerId: string;
  at: string;
  requestId: string;
  outcome: ActivityOutcome;
  runId: string | null;
  detail: string | null;
  /** A `filtered` row keeps its request (the redacted `$trigger`) for replay; nothing else does. */
  request?: unknown;
}
