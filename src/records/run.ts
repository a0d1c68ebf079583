export type RunStatus = "queued" | "running" | "succeeded" | "failed" | "skipped";

/** A workflow run (docs/api.md#run). */
export interface RunRecord {
  id: string;
  triggerId: string;
  requestId: string;
  status: RunStatus;
  /** The `$trigger` payload (redacted); absent when listed without `include=trigger`. */
  trigger?: unknown;
  result: unknown;
  attempts: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The run or Activity row this run replays (docs/api.md#replay), else null. */
  replayOf?: string | null;
  /** The trigger's destination this run delivers to (README "Destinations"); `default` for the workflow shorthand. */
  destination?: string;
  /**
   * Hash of the ordering key's value (`workflow.orderingKey`, docs/api.md#ordering-per-key): runs
   * of one trigger with the same one execute one at a time, in acceptance order. Null: not ordered.
   */
  orderingKey?: string | null;
}

/**
 * One of the instance's slots for workflow response mode runs, taken before its run's commit so
 * that the waiting caller's run need not wait for the queue's shared slots. The run is still
 * committed queued and claimed under its destination's limits (README "Limits, the breaker and
 * pause"). Released exactly once, by whoever ends its use: the recorder when no run was committed
 * (a duplicate, a failed commit), else the queue when the run is done or could not be claimed; a
 * second call does nothing.
 */
export interface DirectSlot {
  release(): void;
  /** The run is committed reserved for this instance, where its caller waits (see RunReservation). */
  reservation: RunReservation;
}

/**
 * A queued run kept for one instance until `untilMs` (its caller's response timeout): no other
 * instance sharing the store claims it before then, so the caller waiting on this instance gets
 * the run's answer (docs/store.md). Past `untilMs` (the instance is gone, or the caller gave up)
 * any instance may claim it.
 */
export interface RunReservation {
  owner: string;
  untilMs: number;
}

/** A run with its `$trigger`, as a runner receives it. */
export type ClaimedRun = RunRecord & { trigger: unknown };

/** How a run ended. */
export interface RunFinish {
  status: "succeeded" | "failed" | "skipped";
  result: unknown;
  error: string | null;
  attempts: number;
  finishedAt: string;
}
