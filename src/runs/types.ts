import type { ClaimedRun } from "../records/run.ts";
import type { WorkflowConfig } from "../records/workflow.ts";

/** What a workflow answers in `workflow` response mode (status, headers, body as sent to the caller). */
export interface WorkflowAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer>;
}

/** How a run ended, as the queue records it and workflow response mode answers it. */
export interface RunOutcome {
  /** `skipped`: the destination's transform returned null (README "Transformations"). */
  status: "succeeded" | "failed" | "skipped";
  attempts: number;
  /** One line for the owner (never sent to callers); null when it succeeded. */
  error: string | null;
  /** Stored as the run's `result` (bounded). */
  result: unknown;
  /** The response the workflow authored; null when it failed without one. */
  answer: WorkflowAnswer | null;
  /** The status of the "workflow failed" answer when `answer` is null: 502 for an unreachable http target, else 500. */
  failureStatus?: 500 | 502;
}

/** What a runner is given besides the run. */
export interface RunContext {
  /** Aborted when the server stops: the runner stops at once and the run is queued again. */
  signal: AbortSignal;
  /** Stores progress (attempts so far and the result so far) before a retry; resolves with whether it was stored (never rejects). */
  recordAttempt(attempts: number, result: unknown): Promise<boolean>;
  /**
   * One delivery attempt to an http target ended: `ok` unless it failed as a broken target does
   * (connection error, timeout, 408, 429, 5xx). The destination's breaker counts it; resolves
   * with whether the breaker still lets the destination's runs go on (false: it is open now).
   */
  attemptEnded?(ok: boolean): Promise<boolean>;
  /** Before a retry: whether the destination's breaker lets another attempt go (false: open or half-open). */
  mayAttempt?(): Promise<boolean>;
}

export type WorkflowOf<K extends WorkflowConfig["kind"]> = Extract<WorkflowConfig, { kind: K }>;

/** Executes one kind of workflow. Expected failures are outcomes; a throw is a bug. */
export type Runner<K extends WorkflowConfig["kind"]> = (workflow: WorkflowOf<K>, run: ClaimedRun, context: RunContext) => Promise<RunOutcome>;

/** The aborted error runners throw when the server stops mid-run. */
export class RunAborted extends Error {
  override name = "RunAborted";
  constructor(why = "the server is stopping") {
    super(`${why}; the run goes back to the queue`);
  }
}
