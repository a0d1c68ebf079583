import { destinationOf } from "../records/destination.ts";
import type { ClaimedRun } from "../records/run.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { commandRunner, type CommandRunnerOptions } from "./command_runner.ts";
import { httpRunner, type HttpRunnerOptions } from "./http_runner.ts";
import { ScriptPool, type ScriptPoolOptions } from "./script/pool.ts";
import { DEFAULT_SCRIPT_LIMITS, scriptRunner, type ScriptLimits } from "./script_runner.ts";
import type { RunContext, RunOutcome } from "./types.ts";

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
      const workflow = destination.workflow;
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
    },
    close: () => scriptPool.close(),
  };
}
