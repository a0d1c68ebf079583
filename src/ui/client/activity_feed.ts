import type { ActivityRow } from "./types.ts";

/** Rows one call reads (the API's `limit`). */
export const ACTIVITY_PAGE = 200;
const HOUR = 3_600_000;
const MAX_PAGES = 10;
/**
 * A counted row of refusals keeps growing through its clock minute (README "Bounded refusals"):
 * rows this recent are read again even below the first page, up to RECOUNT_PAGES pages.
 */
const RECOUNT_MS = 120_000;
const RECOUNT_PAGES = 3;

/** One page of a trigger's Activity, newest first: the newest rows, or those older than the row `before`. */
export type ActivityPage = (before?: string) => Promise<ActivityRow[]>;

/** A trigger's Activity rows as the panel holds them, newest first, kept up to date a tick at a time. */
export interface ActivityFeed {
  readonly rows: readonly ActivityRow[];
  /** Every row of the trigger is loaded. */
  readonly complete: boolean;
  /** The first load stopped at its page limit before it covered the last hour. */
  readonly partialHour: boolean;
  /**
   * Reads the rows new since the last tick; on the first, enough to cover the last hour. A counted
   * row of refusals seen again may have grown: its new count replaces the old. Says whether the
   * rows are to be shown again (new rows, a new count, or the first load).
   */
  refresh(): Promise<boolean>;
  /** Reads the page of rows older than the last one held. */
  older(): Promise<void>;
}

export function activityFeed(page: ActivityPage, now: () => number = Date.now): ActivityFeed {
  let rows: ActivityRow[] = [];
  let complete = false;
  let partialHour = false;

  /** Rows of `batch` held already are brought up to date; says whether a count changed. */
  function recount(batch: ActivityRow[], known: Map<string, number>): boolean {
    let recounted = false;
    for (const row of batch) {
      const at = known.get(row.id);
      if (at !== undefined && rows[at].count !== row.count) {
        rows[at] = row;
        recounted = true;
      }
    }
    return recounted;
  }

  async function refresh(): Promise<boolean> {
    const known = new Map(rows.map((r, i) => [r.id, i]));
    const fresh: ActivityRow[] = [];
    let recounted = false;
    let before: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const batch = await page(before);
      if (recount(batch, known)) recounted = true;
      const unseen = batch.filter((r) => !known.has(r.id));
      fresh.push(...unseen);
      const last = batch[batch.length - 1];
      if (batch.length < ACTIVITY_PAGE) {
        if (rows.length === 0) complete = true;
        break;
      }
      const recent = Date.parse(last.at) >= now() - RECOUNT_MS && i + 1 < RECOUNT_PAGES;
      if (unseen.length < batch.length && !recent) break;
      if (rows.length === 0 && Date.parse(last.at) < now() - HOUR) break;
      before = last.id;
      if (i === MAX_PAGES - 1 && rows.length === 0) partialHour = true;
    }
    const changed = fresh.length > 0 || recounted || rows.length === 0;
    if (changed) rows = [...fresh, ...rows];
    return changed;
  }

  async function older(): Promise<void> {
    const batch = await page(rows[rows.length - 1]?.id);
    if (batch.length < ACTIVITY_PAGE) complete = true;
    rows = [...rows, ...batch];
  }

  return {
    get rows() {
      return rows;
    },
    get complete() {
      return complete;
    },
    get partialHour() {
      return partialHour;
    },
    refresh,
    older,
  };
}
