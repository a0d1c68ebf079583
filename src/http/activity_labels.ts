import type { ActivityOutcome } from "../records/activity.ts";

export const ACTIVITY_LABELS: Record<ActivityOutcome, string> = {
  run: "Run",
  deduplicated: "Deduplicated",
  filtered: "Filtered",
  auth_failed: "Authentication failed",
  rejected: "Rejected",
  error: "Error",
};
