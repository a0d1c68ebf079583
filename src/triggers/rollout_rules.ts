import { REPORT_WINDOW_MAX_DAYS, type Rollout } from "../records/rollout.ts";
import type { ValidationDetail } from "./validation_error.ts";

/** A date-time with its offset (`Z` or `±hh:mm`): without one, "until when" would depend on the server's zone. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const EXAMPLE = "for example 2026-03-01T00:00:00Z";

/**
 * `mode` / `reportUntil` of `auth` or `sources` (README "Report-only rollout"): `settled` is the
 * check's rollout as it will be saved, `given` what the request body said of it. `reportUntil`
 * is required in report mode and only there; its time is checked when the body sets the mode or
 * the date (a window that has since ended must not block an unrelated change). `declared`: the
 * settings come from a config file, where a date already past is accepted (the window is over).
 */
export function rolloutErrors(
  path: "/auth" | "/sources",
  settled: Rollout | undefined,
  given: Rollout | undefined,
  now: Date,
  declared = false,
): ValidationDetail[] {
  const at = `${path}/reportUntil`;
  if (settled?.mode !== "report") {
    return given?.reportUntil !== undefined ? [{ path: at, message: `applies only with ${path.slice(1)}.mode "report"` }] : [];
  }
  const until = settled.reportUntil;
  if (until === undefined) {
    return [
      {
        path: at,
        message: `is required in report mode: until when requests are accepted anyway (an ISO 8601 date-time at most ${REPORT_WINDOW_MAX_DAYS} days ahead, ${EXAMPLE})`,
      },
    ];
  }
  const ms = ISO_DATE_TIME.test(until) && isCalendarDate(until.slice(0, 10)) ? Date.parse(until) : NaN;
  if (Number.isNaN(ms)) return [{ path: at, message: `must be an ISO 8601 date-time with its offset, ${EXAMPLE}` }];
  if (given?.mode === undefined && given?.reportUntil === undefined) return [];
  if (ms <= now.getTime()) return declared ? [] : [{ path: at, message: `must be in the future (it is ${now.toISOString()} now)` }];
  const latest = new Date(now.getTime() + REPORT_WINDOW_MAX_DAYS * 86_400_000);
  if (ms > latest.getTime()) return [{ path: at, message: `must be at most ${REPORT_WINDOW_MAX_DAYS} days ahead (${latest.toISOString()} at the latest)` }];
  return [];
}

/** `yyyy-mm-dd` names a day that exists (the date parser would take 2026-02-30 as March 2nd). */
function isCalendarDate(date: string): boolean {
  const [y, m, d] = date.split("-").map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}
