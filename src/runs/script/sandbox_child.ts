import { fileURLToPath } from "node:url";
import { RunAborted } from "../types.ts";
import { SANDBOX_CHILD_ARG, type FromChild, type ScriptJob, type ScriptReply, type ToChild } from "./protocol.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** This program in sandbox-child mode: the compiled binary re-executes itself; from a checkout, `bun run src/main.ts`. */
export function sandboxChildCommand(): string[] {
  return Bun.isStandaloneExecutable ? [process.execPath, SANDBOX_CHILD_ARG] : [process.execPath, "run", MAIN, SANDBOX_CHILD_ARG];
}

/** The child needs no secrets: inlet's own settings stay out of its environment. */
function childEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("INLET_")) env[name] = value;
  return env;
}

/** One sandbox process. */
export class SandboxChild {
  readonly proc: ReturnType<typeof Bun.spawn>;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  idleSince = 0;
  /** Became ready once (a child that never started is not replaced in a loop). */
  started = false;
  private markReady!: () => void;
  private current: { id: number; timeoutMs: number; resolve: (reply: ScriptReply) => void; reject: (error: unknown) => void } | null = null;
  private killedFor: "deadline" | "abort" | "close" | null = null;
  private seq = 0;
  private alive = true;

  constructor(command: string[], startTimeoutMs: number) {
    let failStart!: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      failStart = reject;
    });
    this.proc = Bun.spawn(command, {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "inherit",
      env: childEnv(),
      serialization: "json",
      ipc: (message: FromChild) => this.onMessage(message),
    });
    const startTimer = setTimeout(() => {
      failStart(new Error(`the sandbox process did not start within ${startTimeoutMs} ms`));
      this.kill("close");
    }, startTimeoutMs);
    this.exited = this.proc.exited.then((code) => {
      clearTimeout(startTimer);
      this.alive = false;
      failStart(new Error(`the sandbox process exited while starting (code ${code})`));
      this.onExit(code);
    });
    this.ready.then(
      () => clearTimeout(startTimer),
      () => {},
    );
  }

  get usable(): boolean {
    return this.alive && this.killedFor === null;
  }

  /** Runs one job; the hard timer kills the process `graceMs` after the script's deadline. */
  run(job: ScriptJob, graceMs: number, signal: AbortSignal): Promise<ScriptReply> {
    return new Promise<ScriptReply>((resolve, reject) => {
      const id = ++this.seq;
      const hard = setTimeout(() => this.kill("deadline"), job.timeoutMs + graceMs);
      const onAbort = () => this.kill("abort");
      signal.addEventListener("abort", onAbort, { once: true });
      const done = () => {
        clearTimeout(hard);
        signal.removeEventListener("abort", onAbort);
        this.current = null;
      };
      this.current = {
        id,
        timeoutMs: job.timeoutMs,
        resolve: (reply) => {
          done();
          resolve(reply);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      if (signal.aborted) return this.kill("abort");
      try {
        this.proc.send({ type: "run", id, job } satisfies ToChild);
      } catch (error) {
        this.current.resolve({ ok: false, code: "crashed", message: `could not reach the sandbox process: ${(error as Error).message}`, logs: [] });
      }
    });
  }

  kill(reason: "deadline" | "abort" | "close"): void {
    this.killedFor ??= reason;
    if (this.alive) this.proc.kill("SIGKILL");
  }

  private onMessage(message: FromChild): void {
    if (message?.type === "ready") {
      this.started = true;
      this.markReady();
    } else if (message?.type === "result" && this.current?.id === message.id) this.current.resolve(message.reply);
  }

  private onExit(code: number | null): void {
    const job = this.current;
    if (!job) return;
    if (this.killedFor === "abort" || this.killedFor === "close") return job.reject(new RunAborted());
    if (this.killedFor === "deadline") {
      return job.resolve({
        ok: false,
        code: "timeout",
        message: `the script ran past its ${job.timeoutMs} ms deadline; its sandbox process was killed`,
        logs: [],
      });
    }
    job.resolve({ ok: false, code: "crashed", message: `the sandbox process exited unexpectedly (code ${code ?? this.proc.signalCode})`, logs: [] });
  }
}
