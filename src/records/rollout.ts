/**
 * A check's rollout (README "Report-only rollout"): `auth.mode` and `sources.mode` are
 * `enforce` (the default: a request that fails is refused) or `report` until `reportUntil` (it
 * is accepted and marked instead), after which the check enforces by itself.
 */
export interface Rollout {
  mode?: "enforce" | "report";
  reportUntil?: string;
}

/** How far ahead `reportUntil` may be when saved: a report-only window is a rollout, not a setting to forget. */
export const REPORT_WINDOW_MAX_DAYS = 30;

/**
 * Whether a check set to `rollout` only reports for a request that arrived at `now`: report
 * mode, before its `reportUntil`. Decided per request, so the switch back to enforcing needs no write.
 */
export const reportsOnly = (rollout: Rollout | undefined, now: Date): boolean =>
  rollout?.mode === "report" && rollout.reportUntil !== undefined && Date.parse(rollout.reportUntil) > now.getTime();

/** How the Activity detail of a request a report-only check let through starts. */
export const REPORT_ONLY_NOTE = "report-only: ";

/**
 * How that detail starts when authentication was what it failed (whatever else it failed, this
 * part comes first): the `auth_failures` alert counts those rows beside the `auth_failed` ones.
 */
export const REPORT_ONLY_AUTH_NOTE = `${REPORT_ONLY_NOTE}authentication failed: `;
