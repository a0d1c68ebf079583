import type { ActivityRecord } from "../records/activity.ts";
import type { ReplayCandidate, ReplayQuery } from "../records/ingest.ts";
import type { RunRecord } from "../records/run.ts";

export interface Page {
  limit: number;
  before?: string;
}

/** What was received and run, read back: the API's lists, `/metrics`' queue gauge, and what a replay selects. */
export interface History {
  listActivity(triggerId: string, page: Page): Promise<ActivityRecord[]>;
  /** One Activity row with the request it kept (filtered rows only), or null. */
  getActivity(id: string): Promise<ActivityRecord | null>;
  listRuns(filter: { triggerId?: string; includeTrigger: boolean } & Page): Promise<RunRecord[]>;
  getRun(id: string): Promise<RunRecord | null>;
  /**
   * Per trigger, how many queued runs wait behind an earlier run of the same ordering key that
   * is still queued, running or retrying (a key stuck behind a failing run shows here).
   */
  runsWaitingOnKey(): Promise<Record<string, number>>;
  /** How many requests a bulk replay matches: `listReplayable` holds one row for each. */
  countReplayable(query: ReplayQuery): Promise<number>;
  /**
   * The next `limit` runs or filtered requests a bulk replay matches after `afterSeq`, oldest
   * first (it pages through these): one row per request, its latest attempt (store/replay_where.ts).
   */
  listReplayable(query: ReplayQuery, afterSeq: number, limit: number): Promise<ReplayCandidate[]>;
}
