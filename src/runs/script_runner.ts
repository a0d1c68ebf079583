import { InvalidAnswer, scriptAnswer } from "./script/answer.ts";
import type { ScriptPool } from "./script/pool.ts";
import type { Runner, RunOutcome } from "./types.ts";

export const DEFAULT_SCRIPT_TIMEOUT_MS = 1000;

export interface ScriptLimits {
  /** QuickJS memory cap per run (32 MiB, docs/processing-order.md#limits-and-defaults). */
  memoryBytes: number;
  /** QuickJS stack limit; above 256 KB deep recursion overflows the host stack first (docs/processing-order.md#the-sandbox). */
  stackBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: Readonly<ScriptLimits> = Object.freeze({ memoryBytes: 32 * 1024 * 1024, stackBytes: 256 * 1024 });

/**
 * Runs the script's default export (`($trigger, { runId }) => …`, sync or async) in a sandbox
 * process of `pool`. Its return value is the result and, in workflow response mode, the answer.
 */
export function scriptRunner(pool: ScriptPool, limits: ScriptLimits = DEFAULT_SCRIPT_LIMITS): Runner<"script"> {
  return async (workflow, run, context): Promise<RunOutcome> => {
    const timeoutMs = workflow.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS;
    const started = performance.now();
    const reply = await pool.run(
      { source: workflow.source, trigger: run.trigger, runId: run.id, timeoutMs, memoryBytes: limits.memoryBytes, stackBytes: limits.stackBytes },
      context.signal,
    );
    const durationMs = Math.round(performance.now() - started);
    if (!reply.ok) {
      return {
        status: "failed",
        attempts: 1,
        error: reply.message,
        result: { failure: reply.code, durationMs, logs: reply.logs },
        answer: null,
        failureStatus: 500,
      };
    }
    try {
      const answer = scriptAnswer(reply.value);
      return {
        status: "succeeded",
        attempts: 1,
        error: null,
        result: { value: reply.value ?? null, status: answer.status, durationMs, logs: reply.logs },
        answer,
      };
    } catch (error) {
      if (!(error instanceof InvalidAnswer)) throw error;
      const message = `the script returned an invalid response: ${error.message}`;
      return {
        status: "failed",
        attempts: 1,
        error: message,
        result: { failure: "invalid_response", value: reply.value ?? null, durationMs, logs: reply.logs },
        answer: null,
        failureStatus: 500,
      };
    }
  };
}
