import type { ClaimedRun, RunFinish } from "../records/run.ts";
import type { DestinationRulesOf } from "./destination_flow.ts";

/** How the run queue takes runs, holds them under leases and ends them (docs/store.md "Runs: claims and leases"). */
export interface RunLeases {
  /**
   * Claims up to `limit` runs for `owner`: queued runs taken in turn from every destination with
   * runs waiting (fair_claim.ts), each destination's oldest first and only as its pause, breaker,
   * concurrency and rate limit allow (destination_flow.ts; across instances on PostgreSQL), and
   * running runs whose lease lapsed (their process is gone). They become `running`, leased until
   * `now + leaseMs`.
   */
  claimRuns(owner: string, limit: number, leaseMs: number, now: Date, rulesOf?: DestinationRulesOf): Promise<ClaimedRun[]>;
  /** Claims one queued run by id (a run that should start now); null when it is not queued, or its destination may not start it now. */
  claimRun(id: string, owner: string, leaseMs: number, now: Date, rulesOf?: DestinationRulesOf): Promise<ClaimedRun | null>;
  /** Extends the lease of the runs `owner` is still executing. */
  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void>;
  /** Records progress of a running run (attempts so far, the result so far); false when `owner` no longer holds it. */
  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean>;
  /** Ends a run `owner` holds; false when it no longer holds it (deleted, or its lease was taken over). */
  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean>;
  /**
   * Gives runs `owner` holds back to the queue (a graceful stop, an open breaker): running →
   * queued. `reservedUntilMs`: they stay reserved for `owner` until then (a caller waits there for
   * them: records/run.ts RunReservation); else any instance may claim them.
   */
  releaseRuns(owner: string, ids: string[], reservedUntilMs?: number): Promise<void>;
  /**
   * Requeues runs left `running` by a process that is gone (at-least-once after a crash). SQLite
   * has one process per file, so at start every running run is abandoned; PostgreSQL requeues
   * those whose lease lapsed.
   */
  requeueAbandonedRuns(now: Date): Promise<number>;
}
