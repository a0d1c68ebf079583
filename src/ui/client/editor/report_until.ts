/**
 * `Report until` of a report-only rollout (README "Report-only rollout"), between the panel's
 * `datetime-local` field (the browser's zone, to the minute) and the API's ISO instant.
 */

/** How far ahead the server takes a new `reportUntil` (a copy of its rule, checked again there). */
export const REPORT_WINDOW_DAYS = 30;

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant as a `datetime-local` value in the browser's zone, to the minute; "" for none. */
export function toLocalInput(iso: string | undefined): string {
  const at = iso === undefined ? NaN : Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (the browser's zone) as an ISO instant; null when it names none. */
export function fromLocalInput(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0));
  const at = new Date(y, mo - 1, d, h, mi, s);
  return at.getMonth() === mo - 1 && at.getDate() === d ? at.toISOString() : null;
}

/** Why `iso` (from the field) cannot be a new `reportUntil` at `now`, in words for the field; null when it can. */
export function reportUntilProblem(iso: string | null, now: Date): string | null {
  if (iso === null) return "Choose until when requests are accepted anyway: a date and time.";
  const at = Date.parse(iso);
  if (at <= now.getTime()) return "Choose a time in the future.";
  if (at > now.getTime() + REPORT_WINDOW_DAYS * 86_400_000) return `At most ${REPORT_WINDOW_DAYS} days ahead.`;
  return null;
}
