import type { ActivityOutcome, ActivityRecord } from "../records/activity.ts";
import type { IngestLog } from "../store/ingest_log.ts";

/** Refusals of one trigger and outcome that get their own Activity row, per clock minute (README "Security"). */
export const OWN_ROWS_PER_MINUTE = 60;
/**
 * Reasons counted on a row of their own, per trigger, outcome and minute. A reason can name what
 * the caller sent (an address, a timestamp's skew): without this bound a flood varying it would
 * still leave a row per request.
 */
export const COUNTED_REASONS_PER_MINUTE = 20;
/** The reason of the row that counts refusals past those reasons. */
export const OTHER_REASONS = `other reasons (more than ${COUNTED_REASONS_PER_MINUTE} different reasons in this minute)`;

/** The outcomes whose rows are bounded: what anyone who knows a trigger's URL can cause. */
const REFUSALS: ReadonlySet<ActivityOutcome> = new Set(["auth_failed", "rejected"]);

interface Minute {
  /** The minute's start, epoch milliseconds. */
  start: number;
  /** Refusals seen in it. */
  seen: number;
  /** The reasons counted on a row of their own in it. */
  reasons: Set<string | null>;
}

/**
 * Where each refused request's Activity row goes: the first {@link OWN_ROWS_PER_MINUTE} of a
 * trigger, outcome and clock minute are rows of their own; the rest add to that minute's counted
 * row of their reason (`Store.countActivity`). Counted in this process: instances sharing a
 * database each give their own first rows, and share the counted ones.
 */
export class RefusalTally {
  private readonly minutes = new Map<string, Minute>();
  /** The minute whose start last swept the tally of past minutes. */
  private sweptAt = 0;

  /**
   * Null: the row is the request's own. Otherwise the reason to count it under (its own, or
   * {@link OTHER_REASONS} once the minute has its share of reasons).
   */
  place(triggerId: string, outcome: ActivityOutcome, detail: string | null, atMs: number): { detail: string | null } | null {
    const start = Math.floor(atMs / 60_000) * 60_000;
    this.sweep(start);
    const key = `${triggerId}\u0000${outcome}`;
    let minute = this.minutes.get(key);
    // A request whose clock was read just before the minute turned, tallied after one of the new
    // minute, is tallied with the new one (its row still goes to its own minute's counted row).
    if (!minute || minute.start < start) {
      minute = { start, seen: 0, reasons: new Set() };
      this.minutes.set(key, minute);
    }
    minute.seen++;
    if (minute.seen <= OWN_ROWS_PER_MINUTE) return null;
    if (minute.reasons.has(detail)) return { detail };
    if (minute.reasons.size < COUNTED_REASONS_PER_MINUTE) {
      minute.reasons.add(detail);
      return { detail };
    }
    return { detail: OTHER_REASONS };
  }

  /** Forgets past minutes (and so deleted triggers) once a minute: the tally holds one minute per trigger and outcome. */
  private sweep(start: number): void {
    if (start <= this.sweptAt) return;
    this.sweptAt = start;
    for (const [key, minute] of this.minutes) if (minute.start < start) this.minutes.delete(key);
  }
}

/**
 * Writes the Activity row of a request that ended without committing one: a refusal through
 * `tally` (its own row, or a count on its minute's row), anything else as its own row.
 */
export function writeActivity(store: Pick<IngestLog, "recordActivity" | "countActivity">, tally: RefusalTally, row: ActivityRecord): Promise<void> {
  if (!REFUSALS.has(row.outcome)) return store.recordActivity(row);
  const counted = tally.place(row.triggerId, row.outcome, row.detail, Date.parse(row.at));
  return counted ? store.countActivity({ ...row, detail: counted.detail, count: 1 }) : store.recordActivity(row);
}
