import type { FileSink } from "bun";
import { ANSWER_LIMIT_BYTES, boundBytes, OUTPUT_LIMIT_BYTES, readBounded } from "./bounded_output.ts";
import { RunAborted, type Runner, type RunOutcome, type WorkflowAnswer } from "./types.ts";

export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;
/** After the command exits, how long processes it left behind may keep its pipes open. */
const PIPE_GRACE_MS = 250;

export interface CommandRunnerOptions {
  /** The environment commands start from (default: this process's, without inlet's own `INLET_*` settings). */
  env?: Record<string, string | undefined>;
  /** Bound of each captured stream. */
  outputLimitBytes?: number;
}

/** The server's environment minus its own settings: the admin token and the secret key stay in. */
function baseEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("INLET_")) env[name] = value;
  return env;
}

/**
 * Runs `argv` without a shell, `$trigger` as JSON on stdin, the run id in `INLET_RUN_ID`. The
 * command gets its own process group (setsid), so its timeout kills everything it started, not
 * only the first process. The run's result keeps stdout and stderr up to 64 KiB each; the answer
 * (workflow response mode) is stdout up to 1 MiB, as an http target's body is.
 *
 * Per run the server pays for the spawn itself and for the three descriptors (test/bench figures
 * in the README): `$trigger` is written to a pipe once, natively (see `feed`); the environment
 * inherited from the server is copied once, not per run.
 */
export function commandRunner(options: CommandRunnerOptions = {}): Runner<"command"> {
  const limit = options.outputLimitBytes ?? OUTPUT_LIMIT_BYTES;
  let inherited: Record<string, string | undefined> | undefined = options.env;
  return async (workflow, run, context): Promise<RunOutcome> => {
    if (context.signal.aborted) throw new RunAborted();
    const timeoutMs = workflow.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    inherited ??= baseEnv();
    const env = { ...inherited, INLET_RUN_ID: run.id, INLET_REQUEST_ID: run.requestId, INLET_TRIGGER_ID: run.triggerId };
    const started = performance.now();
    let proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
    try {
      proc = Bun.spawn(workflow.argv, { stdin: "pipe", stdout: "pipe", stderr: "pipe", env, detached: true });
    } catch (error) {
      const message = `could not start ${JSON.stringify(workflow.argv[0])}: ${(error as Error)?.message ?? String(error)}`;
      return failed(message, { argv: workflow.argv, exitCode: null, error: message });
    }
    feed(proc.stdin, JSON.stringify(run.trigger));
    const watch = watchGroup(proc.pid, timeoutMs, context.signal);
    const pipesClosed = new AbortController();
    let drained = false;
    // stdout is the answer in workflow response mode: read as much of it as an answer may be.
    const output = Promise.all([
      readBounded(proc.stdout, Math.max(limit, ANSWER_LIMIT_BYTES), pipesClosed.signal),
      readBounded(proc.stderr, limit, pipesClosed.signal),
    ]).then((both) => {
      drained = true;
      return both;
    });

    const exitCode = await proc.exited;
    const timedOut = watch.stop();
    // Something it started in the background may hold the pipes open: stop reading after a moment
    // (no timer at all in the usual case, where both pipes closed with the command).
    const grace = drained ? undefined : setTimeout(() => pipesClosed.abort(), PIPE_GRACE_MS);
    const [whole, err] = await output;
    const out = boundBytes(whole.raw, limit, whole.bytes);
    clearTimeout(grace);
    if (context.signal.aborted) throw new RunAborted();

    const durationMs = Math.round(performance.now() - started);
    const signal = proc.signalCode ?? null;
    const result = {
      argv: workflow.argv,
      exitCode: signal ? null : exitCode,
      signal,
      timedOut,
      durationMs,
      stdout: out.text,
      stderr: err.text,
      stdoutBytes: out.bytes,
      stderrBytes: err.bytes,
      stdoutTruncated: out.truncated,
      stderrTruncated: err.truncated,
    };
    if (timedOut) return failed(`timed out after ${timeoutMs} ms; its process group was killed`, result);
    if (signal || exitCode !== 0) return failed(signal ? `killed by ${signal}` : `exited with code ${exitCode}`, result);
    return { status: "succeeded", attempts: 1, error: null, result, answer: stdoutAnswer(whole.text, whole.raw, whole.truncated) };
  };
}

/** A command's failed run: one attempt, no answer; a waiting caller gets `500`. */
function failed(error: string, result: Record<string, unknown>): RunOutcome {
  return { status: "failed", attempts: 1, error, result, answer: null, failureStatus: 500 };
}

/**
 * Kills the command's whole process group when its timeout passes or the run is aborted (the
 * server stopping). `stop()`, once it exited, ends the watch and says whether the timeout killed it.
 */
function watchGroup(pid: number, timeoutMs: number, signal: AbortSignal): { stop: () => boolean } {
  let timedOut = false;
  const killGroup = () => {
    try {
      // The negative pid names the process group the command leads.
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, timeoutMs);
  signal.addEventListener("abort", killGroup, { once: true });
  return {
    stop() {
      clearTimeout(timer);
      signal.removeEventListener("abort", killGroup);
      return timedOut;
    },
  };
}

/**
 * Writes `$trigger` to the command's stdin and closes it. A command that exits or closes its
 * stdin without reading it all is fine: the broken pipe is ignored, nothing waits on it.
 *
 * A pipe, not bytes given to `Bun.spawn`: Bun stages such bytes in a memory file that stays open
 * in the server until the process object is garbage-collected. Under a load of commands hundreds
 * of them piled up (~900 open descriptors), holding every payload, and each spawn paid for
 * copying and closing them all (~35 µs of CPU per command at that count).
 */
function feed(stdin: FileSink, json: string): void {
  const ignore = () => {};
  try {
    const written = stdin.write(json);
    if (written instanceof Promise) written.catch(ignore);
    const ended = stdin.end();
    if (ended instanceof Promise) ended.catch(ignore);
  } catch {
    // Already closed by the command.
  }
}

/** A command's stdout as the workflow's answer: JSON when it parses, else text; 200. */
function stdoutAnswer(text: string, raw: Uint8Array<ArrayBuffer>, truncated: boolean): WorkflowAnswer {
  let json = false;
  if (!truncated && text.trim() !== "") {
    try {
      JSON.parse(text);
      json = true;
    } catch {
      json = false;
    }
  }
  return { status: 200, headers: { "Content-Type": json ? "application/json" : "text/plain; charset=utf-8" }, body: raw };
}
