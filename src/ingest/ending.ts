import type { ActivityOutcome } from "../records/activity.ts";
import type { RunRecord } from "../records/run.ts";

/**
 * How a request ends: its outcome (Activity and metrics), the reason for the owner, and the answer
 * to the caller. Every stage that stops a request returns one; the pipeline writes the request's
 * one Activity row from it (unless the stage already committed that row with a run or a key).
 */
export class Ending {
  private constructor(
    readonly outcome: ActivityOutcome,
    readonly detail: string | null,
    readonly response: Response,
    /** The Activity row was committed together with the run, key or filtered row. */
    readonly recorded: boolean,
    /** Wait for the Activity row to be durable before answering (cheap refusals do not: flood-safe). */
    readonly durable: boolean,
    /** The run this request started, when it started one. */
    readonly run: RunRecord | null,
  ) {}

  /** A refusal or stop whose Activity row the pipeline still has to write. */
  static stop(outcome: ActivityOutcome, detail: string | null, response: Response, options: { durable?: boolean } = {}): Ending {
    return new Ending(outcome, detail, response, false, options.durable ?? false, null);
  }

  /** The same ending, answered with another response (the workflow's, in workflow response mode). */
  answeredBy(response: Response): Ending {
    return new Ending(this.outcome, this.detail, response, this.recorded, this.durable, this.run);
  }

  /** An outcome whose Activity row was already committed (with the run, the key or the filtered row). */
  static committed(outcome: ActivityOutcome, response: Response, run: RunRecord | null = null): Ending {
    return new Ending(outcome, null, response, true, true, run);
  }
}

/** A stage's result: its output, or the request's end. */
export type Step<T> = T | Ending;
