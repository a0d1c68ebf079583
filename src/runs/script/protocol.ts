/** Messages between the server and a sandbox child process (JSON over Bun's IPC channel). */

/** The argument that starts the program as a sandbox child: `inlet __sandbox-child`. */
export const SANDBOX_CHILD_ARG = "__sandbox-child";

/** One script run. */
export interface ScriptJob {
  /** The ES module source: `export default ($trigger, ctx) => …`. */
  source: string;
  trigger: unknown;
  runId: string;
  /** More of `ctx` than `runId` (a transform's `destination` and `attempt`): strings and numbers. */
  context?: Record<string, string | number>;
  /** QuickJS's interrupt deadline, from when the child receives the job. */
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
}

export type ScriptFailure = "timeout" | "memory" | "error" | "crashed";

export type ScriptReply = { ok: true; value: unknown; logs: string[] } | { ok: false; code: ScriptFailure; message: string; logs: string[] };

export type ToChild = { type: "run"; id: number; job: ScriptJob };
export type FromChild = { type: "ready" } | { type: "result"; id: number; reply: ScriptReply };
