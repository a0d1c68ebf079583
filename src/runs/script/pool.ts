import { RunAborted } from "../types.ts";
import type { ScriptJob, ScriptReply } from "./protocol.ts";
import { SandboxChild, sandboxChildCommand } from "./sandbox_child.ts";
import { every, type Repeating } from "../../lifecycle/every.ts";

export interface ScriptPoolOptions {
  /** Most sandbox processes alive at once, which is also how many scripts run at once. */
  size: number;
  /** Processes kept alive while idle, once the pool has been used. */
  warm?: number;
  /** The command that starts a child (default: this program with `__sandbox-child`). */
  command?: string[];
  /** The hard line: SIGKILL this long after a script's deadline if QuickJS did not stop it. */
  killGraceMs?: number;
  /** How long a new child may take to be ready. */
  startTimeoutMs?: number;
  /** Idle children beyond `warm` are stopped after this long. */
  idleMs?: number;
}

/**
 * Warm sandbox processes for script workflows, reused run after run. A script that overruns
 * its deadline is interrupted by QuickJS (the first line) or its process is killed with SIGKILL
 * (the hard line, for long built-in calls QuickJS cannot interrupt); a killed process is replaced.
 */
export class ScriptPool {
  private readonly size: number;
  private readonly warm: number;
  private readonly command: string[];
  private readonly graceMs: number;
  private readonly startTimeoutMs: number;
  private readonly idleMs: number;
  private readonly children = new Set<SandboxChild>();
  private readonly idle: SandboxChild[] = [];
  private readonly waiters: Array<{ resolve: (child: SandboxChild) => void; reject: (error: unknown) => void }> = [];
  private starting = 0;
  private used = false;
  private closed = false;
  /** Idle processes past `idleMs` are stopped (a third of it apart, at least a second). */
  private readonly reaper: Repeating;

  constructor(options: ScriptPoolOptions) {
    this.size = Math.max(1, options.size);
    this.warm = Math.min(this.size, options.warm ?? 1);
    this.command = options.command ?? sandboxChildCommand();
    this.graceMs = options.killGraceMs ?? 100;
    this.startTimeoutMs = options.startTimeoutMs ?? 15_000;
    this.idleMs = options.idleMs ?? 30_000;
    this.reaper = every(Math.max(1000, this.idleMs / 3), () => this.reap());
  }

  /** Processes alive (busy, idle or starting). */
  get processes(): number {
    return this.children.size;
  }

  /** Starts the warm processes now rather than on the first script. */
  prewarm(): void {
    this.used = true;
    this.pump();
  }

  /** Runs `job` in a sandbox process; rejects with RunAborted when `signal` aborts. */
  async run(job: ScriptJob, signal: AbortSignal): Promise<ScriptReply> {
    const child = await this.take(signal);
    try {
      return await child.run(job, this.graceMs, signal);
    } finally {
      this.give(child);
    }
  }

  /** Stops every process. */
  async close(): Promise<void> {
    this.closed = true;
    void this.reaper.stop();
    for (const waiter of this.waiters.splice(0)) waiter.reject(new RunAborted());
    const exits = [...this.children].map((child) => {
      child.kill("close");
      return child.exited;
    });
    await Promise.all(exits);
  }

  private take(signal: AbortSignal): Promise<SandboxChild> {
    if (this.closed) return Promise.reject(new RunAborted());
    if (signal.aborted) return Promise.reject(new RunAborted());
    this.used = true;
    return new Promise<SandboxChild>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(new RunAborted());
      };
      const waiter = {
        resolve: (child: SandboxChild) => {
          signal.removeEventListener("abort", onAbort);
          resolve(child);
        },
        reject: (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  private give(child: SandboxChild): void {
    if (child.usable && !this.closed) {
      child.idleSince = performance.now();
      this.idle.push(child);
    }
    this.pump();
  }

  private pump(): void {
    if (this.closed) return;
    while (this.waiters.length && this.idle.length) {
      const child = this.idle.pop()!;
      if (child.usable) this.waiters.shift()!.resolve(child);
    }
    let wanted = this.waiters.length - this.starting;
    if (this.used) wanted = Math.max(wanted, this.warm - this.children.size);
    while (wanted-- > 0 && this.children.size < this.size) this.spawn();
  }

  private spawn(): void {
    let child: SandboxChild;
    try {
      child = new SandboxChild(this.command, this.startTimeoutMs);
    } catch (error) {
      this.waiters.shift()?.reject(new Error(`could not start a sandbox process: ${(error as Error).message}`));
      return;
    }
    this.children.add(child);
    this.starting++;
    child.ready.then(
      () => {
        this.starting--;
        this.give(child);
      },
      (error: Error) => {
        this.starting--;
        this.waiters.shift()?.reject(error);
      },
    );
    child.exited.then(() => {
      this.children.delete(child);
      const at = this.idle.indexOf(child);
      if (at >= 0) this.idle.splice(at, 1);
      // Replace it (a killed child, or keep the warm count); not in a loop when starting fails.
      if (!this.closed && (this.waiters.length || child.started)) this.pump();
    });
  }

  private reap(): void {
    const now = performance.now();
    for (const child of [...this.idle]) {
      if (this.children.size <= this.warm) break;
      if (now - child.idleSince < this.idleMs) continue;
      this.idle.splice(this.idle.indexOf(child), 1);
      child.kill("close");
    }
  }
}
