import { destinationOf, type DestinationConfig } from "../records/destination.ts";
import type { WorkflowConfig } from "../records/workflow.ts";
import { runTransform } from "./transform.ts";
import type { ClaimedRun } from "../records/run.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { commandRunner, type CommandRunnerOptions } from "./command_runner.ts";
import { httpRunner, type HttpRunnerOptions } from "./http_runner.ts";
import { ScriptPool, type ScriptPoolOptions } from "./script/pool.ts";
import { DEFAULT_SCRIPT_LIMITS, scriptRunner, type ScriptLimits } from "./script_runner.ts";
import { RunAborted, type RunContext, type RunOutcome } from "./types.ts";

export interface RunnersOptions {
  http?: HttpRunnerOptions;
  command?: CommandRunnerOptions;
  /** Sandbox processes for script workflows (size: how many scripts run at once). */
  scriptPool: ScriptPoolOptions;
  scriptLimits?: ScriptLimits;
}

/** Every workflow kind's runner, and the sandbox processes script workflows use. */
export interface Runners {
  execute(trigger: TriggerRecord, run: ClaimedRun, context: RunContext): Promise<RunOutcome>;
  /** Stops the sandbox processes. */
  close(): Promise<void>;
  readonly scriptPool: ScriptPool;
}

export function createRunners(options: RunnersOptions): Runners {
  const http = httpRunner(options.http);
  const command = commandRunner(options.command);
  const scriptPool = new ScriptPool(options.scriptPool);
  const script = scriptRunner(scriptPool, options.scriptLimits ?? DEFAULT_SCRIPT_LIMITS);
  return {
    scriptPool,
    execute(trigger, run, context) {
      const destination = destinationOf(trigger, run.destination);
      if (!destination) {
        const error = `the destination ${JSON.stringify(run.destination)} is no longer one of the trigger's`;
        return Promise.resolve({ status: "failed", attempts: Math.max(1, run.attempts), error, result: null, answer: null });
      }
      if (destination.transform) return transformThenRun(destination, run, context);
      return runWorkflow(destination.workflow, run, context);
    },
    close: () => scriptPool.close(),
  };

  /**
   * A destination's transform runs first, in a sandbox process: what it returns is what the
   * workflow gets (an http target the body as JSON, with its headers added; a command the body on
   * stdin; a script `$trigger` with that body); null skips the run; a failure fails the run at
   * once, never retried (the code, not the target, failed).
   */
  async function transformThenRun(destination: DestinationConfig, run: ClaimedRun, context: RunContext): Promise<RunOutcome> {
    const transform = destination.transform!;
    const outcome = await runTransform(
      scriptPool,
      {
        source: transform.source,
        timeoutMs: transform.timeoutMs,
        trigger: run.trigger,
        ctx: { runId: run.id, destination: destination.name, attempt: run.attempts + 1 },
      },
      context.signal,
    );
    if (context.signal.aborted) throw new RunAborted();
    if (!outcome.ok) return { status: "failed", attempts: 1, error: outcome.error, result: { failure: "transform" }, answer: null, failureStatus: 500 };
    if (outcome.result === null) return { status: "skipped", attempts: 0, error: null, result: { skipped: "transform returned null" }, answer: null };
    const { body, headers } = outcome.result;
    const workflow = destination.workflow;
    switch (workflow.kind) {
      case "http":
        return runWorkflow({ ...workflow, headers: { ...(workflow.headers ?? {}), ...headers } }, { ...run, trigger: body }, context);
      case "script":
        return runWorkflow(workflow, { ...run, trigger: { ...(run.trigger as object), body } }, context);
      default:
        return runWorkflow(workflow, { ...run, trigger: body }, context);
    }
  }

  function runWorkflow(workflow: WorkflowConfig, run: ClaimedRun, context: RunContext): Promise<RunOutcome> {
    switch (workflow.kind) {
      case "http":
        return http(workflow, run, context);
      case "command":
        return command(workflow, run, context);
      case "script":
        return script(workflow, run, context);
      case "none":
        // The trigger was changed to "none" after this run was queued: nothing to execute.
        return Promise.resolve({ status: "succeeded", attempts: 1, error: null, result: null, answer: null });
    }
  }
}
