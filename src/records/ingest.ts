import type { ActivityRecord } from "./activity.ts";
import type { RunRecord, RunReservation, RunStatus } from "./run.ts";

/** A dedup key to record with the outcome of a request: stored hashed, per trigger. */
export interface DedupClaim {
  keyHash: string;
  windowSeconds: number;
}

/**
 * Everything one accepted request writes, committed in one transaction: the dedup key (if any),
 * the run (if any) and the Activity row. If the key is already present and unexpired when the
 * transaction runs, nothing but a `deduplicated` Activity row is written.
 */
export interface IngestRecord {
  dedup: DedupClaim | null;
  /** The run, as given (with several destinations, the first's): queued, or already ended (workflow `none`). */
  run: (RunRecord & { trigger: unknown }) | null;
  /**
   * The runs of the request's other destinations (README "Destinations"), committed with `run`,
   * the dedup key and the Activity row, all or nothing; same `$trigger`.
   */
  fanOut?: Array<RunRecord & { trigger: unknown }>;
  /** `run.trigger` already serialized, when the pipeline has it: the store keeps it as is. */
  triggerJson?: string;
  activity: ActivityRecord;
  /** `run` is kept for the instance whose caller waits for it (workflow response mode); the fan-out never is. */
  reservedFor?: RunReservation | null;
}

/** What a bulk replay selects (docs/api.md#replay): a trigger's runs by status and time, or its filtered requests by time. */
export interface ReplayQuery {
  triggerId: string;
  source: "runs" | "filtered";
  /** Runs only; empty or absent: any status. */
  statuses?: RunStatus[];
  /** Runs of these destinations only; absent: any. */
  destinations?: string[];
  sinceMs?: number;
  untilMs?: number;
}

/** One thing to replay: a run or a filtered Activity row, with its request's id and the `$trigger` it carried. */
export interface ReplayCandidate {
  seq: number;
  id: string;
  requestId: string;
  trigger: unknown;
  /** A run's destination (a run replays to its own destination only); absent for a filtered request. */
  destination?: string;
}
