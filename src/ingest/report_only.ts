import { REPORT_ONLY_AUTH_NOTE, REPORT_ONLY_NOTE } from "../records/rollout.ts";
import { sourceReason } from "./source_reason.ts";

/** `$trigger.auth` of a trigger whose authentication only reports; absent while it enforces. */
export type AuthMark = { verified: true } | { verified: false; reason: string };

/** `$trigger.sources` of a trigger whose allowed sources only report; absent while they are enforced. */
export type SourcesMark = { allowed: true } | { allowed: false; address: string | null };

/**
 * What the checks that only report (README "Report-only rollout") found of one request, as
 * `$trigger` shows it: each mark is set by its stage (sources, authentication) where that check
 * reports, so an enforcing check leaves its key out.
 */
export interface ReportOnlyMarks {
  auth?: AuthMark;
  sources?: SourcesMark;
}

/** Whether a check that only reports let this request through although it failed. */
export const waivedAny = (marks: ReportOnlyMarks | undefined): boolean => marks?.auth?.verified === false || marks?.sources?.allowed === false;

/**
 * The start of the Activity detail of a request a check let through only because it reports —
 * `report-only: ` and what it failed, authentication first (the auth_failures alert counts rows
 * by that start) — or null when it failed nothing.
 */
export function reportOnlyNote(marks: ReportOnlyMarks | undefined): string | null {
  const failed: string[] = [];
  if (marks?.auth?.verified === false) failed.push(`${REPORT_ONLY_AUTH_NOTE}${marks.auth.reason}`);
  if (marks?.sources?.allowed === false) failed.push(sourceReason(marks.sources.address));
  if (failed.length === 0) return null;
  const note = failed.join("; ");
  return note.startsWith(REPORT_ONLY_NOTE) ? note : `${REPORT_ONLY_NOTE}${note}`;
}

/** A row's detail with the note in front of it. */
export function noted(note: string | null, detail: string): string;
export function noted(note: string | null, detail: string | null): string | null;
export function noted(note: string | null, detail: string | null): string | null {
  return note === null ? detail : detail === null ? note : `${note}; ${detail}`;
}
