/**
 * Runs: the queue that executes committed runs, the runners (http, command, script) and the
 * workflow response mode.
 *
 * @module
 */
export { createRunners, type Runners, type RunnersOptions } from "./runners.ts";
export { RunQueue, type RunQueueOptions } from "./queue.ts";
export { workflowResponse } from "./workflow_response.ts";
export type { RunOutcome, RunContext, WorkflowAnswer } from "./types.ts";
