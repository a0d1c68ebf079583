import type { CheckOp, CheckSettings } from "./check_ops.ts";
import { arrived, postCrossing } from "./crossing.ts";
import type { CheckAnswer, CheckJob } from "./protocol.ts";
import { workerUrl } from "../sandbox/worker_url.ts";

export interface CheckPoolOptions {
  /** Sandbox workers (threads), each with its own QuickJS. */
  size: number;
  /**
   * Evaluations a trigger whose checks recently failed (deadline, memory) may have running at
   * once; default size − 1 (at least 1), so a trigger under attack never holds every worker.
   * A trigger whose checks succeed may use them all while no other trigger waits.
   */
  perTrigger?: number;
  /** How long a failure keeps a trigger limited to `perTrigger`. */
  containMs?: number;
  /** Evaluations a contained trigger may have waiting; past it, more are refused at once. */
  maxWaiting?: number;
  /**
   * Evaluations that may wait server-wide, whatever their trigger; past it the server is
   * overloaded (`CheckPoolOverloaded`). Each holds only a reference to its request's body.
   */
  maxWaitingTotal?: number;
  /** A worker that has not answered this long is replaced (QuickJS's own deadline is the first line). */
  hardTimeoutMs?: number;
  /** An evaluation that found no free worker for this long is given up as overload instead of waiting on. */
  maxWaitMs?: number;
  /** Starts a worker (tests replace it). */
  spawn?: () => Worker;
}

/** Counts for `/metrics`, per trigger. */
export interface TriggerCheckStats {
  running: number;
  waiting: number;
  /** Evaluations that ended at the sandbox's deadline or memory cap, or whose worker was replaced. */
  failed: number;
  /** Evaluations refused at once because too many of the trigger's were already waiting while it was contained. */
  refused: number;
  /** Evaluations given up as overload: no worker within `maxWaitMs`, or too many waiting server-wide. */
  overloaded: number;
}

/**
 * The server cannot evaluate checks as fast as they arrive (every worker busy for `maxWaitMs`, or
 * `maxWaitingTotal` evaluations waiting): the request is answered 503 with `Retry-After`, never 500.
 */
export class CheckPoolOverloaded extends Error {
  override name = "CheckPoolOverloaded";
  readonly code = "overloaded";
}

interface Pending {
  job: Omit<CheckJob, "input">;
  body: unknown;
  triggerId: string;
  timer: ReturnType<typeof setTimeout> | null;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Pending | null;
  timer: ReturnType<typeof setTimeout> | null;
}

const sandboxError = (code: string, message: string) => Object.assign(new Error(message), { name: "SandboxError", code });

/** The worker's module (embedded in `dist/inlet` as a second build entry point). */
const WORKER_URL = workerUrl(import.meta.url, "checks/worker.ts");

export const spawnCheckWorker = () => new Worker(WORKER_URL);

/**
 * Pre-execution checks off the request thread (README "Isolation: one sender never hurts
 * another"): a pool of sandbox workers. Triggers take turns (round-robin over triggers with
 * waiting evaluations).
 *
 * Busy is not hostile: a healthy trigger may use every worker, and its evaluations wait for one
 * however many arrive at once (backpressure: latency grows, the error rate does not). Only a
 * trigger whose checks failed (deadline, memory, a replaced worker) in the last `containMs` is
 * contained: at most `perTrigger` of its evaluations run at once, so it never holds every worker,
 * and past `maxWaiting` waiting its further ones are refused at once (the request gets the usual
 * 500 "pre-execution check failed", the reason in Activity). Waiting is bounded server-wide, by
 * time (`maxWaitMs`) and count (`maxWaitingTotal`): past either the server is overloaded and the
 * request gets 503 with `Retry-After`.
 */
export class CheckPool {
  private readonly slots: Slot[] = [];
  private readonly queues = new Map<string, Pending[]>();
  private turn: string[] = [];
  private readonly stats = new Map<string, TriggerCheckStats>();
  private readonly perTrigger: number;
  private readonly size: number;
  private readonly containMs: number;
  /** When each trigger's checks last failed (deadline, memory, a replaced worker). */
  private readonly lastFailure = new Map<string, number>();
  private readonly maxWaiting: number;
  private readonly maxWaitingTotal: number;
  private waitingTotal = 0;
  private readonly hardTimeoutMs: number;
  private readonly maxWaitMs: number;
  private readonly spawn: () => Worker;
  private nextId = 1;
  private closed = false;

  constructor(options: CheckPoolOptions) {
    const size = Math.max(1, options.size);
    this.size = size;
    this.perTrigger = Math.max(1, options.perTrigger ?? size - 1);
    this.containMs = options.containMs ?? 10_000;
    this.maxWaiting = options.maxWaiting ?? 32;
    this.maxWaitingTotal = options.maxWaitingTotal ?? 4096;
    this.hardTimeoutMs = options.hardTimeoutMs ?? 2000;
    this.maxWaitMs = options.maxWaitMs ?? 5000;
    this.spawn = options.spawn ?? spawnCheckWorker;
    for (let i = 0; i < size; i++) this.slots.push(this.start());
  }

  /** Evaluates one of a trigger's checks in a worker; rejects with a sandbox error (code `sandbox_…`) when it cannot. */
  run(triggerId: string, key: string, settings: CheckSettings, op: CheckOp, body: unknown): Promise<unknown> {
    if (this.closed) return Promise.reject(sandboxError("sandbox_unavailable", "the sandbox workers are stopped"));
    const stats = this.statsOf(triggerId);
    const queue = this.queues.get(triggerId) ?? [];
    if (queue.length >= this.maxWaiting && this.isContained(triggerId)) {
      stats.refused++;
      return Promise.reject(
        sandboxError(
          "sandbox_busy",
          `${queue.length} evaluations of this trigger are already waiting for a sandbox worker and its checks failed or blew their deadline in the last ${this.containMs / 1000} s: refused at once so other triggers are not held up`,
        ),
      );
    }
    if (this.waitingTotal >= this.maxWaitingTotal) {
      stats.overloaded++;
      return Promise.reject(new CheckPoolOverloaded(`${this.waitingTotal} check evaluations are already waiting for a sandbox worker`));
    }
    return new Promise((resolve, reject) => {
      const pending: Pending = { job: { id: this.nextId++, key, settings, op }, body, triggerId, resolve, reject, timer: null };
      pending.timer = setTimeout(() => this.giveUp(pending), this.maxWaitMs);
      queue.push(pending);
      if (!this.queues.has(triggerId)) {
        this.queues.set(triggerId, queue);
        this.turn.push(triggerId);
      }
      stats.waiting++;
      this.waitingTotal++;
      this.pump();
    });
  }

  /** Per-trigger counts (running, waiting, failed, refused). */
  snapshot(): Map<string, TriggerCheckStats> {
    return new Map([...this.stats].map(([id, s]) => [id, { ...s }]));
  }

  /** Stops every worker; waiting evaluations fail. */
  close(): void {
    this.closed = true;
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.busy?.reject(sandboxError("sandbox_unavailable", "the sandbox workers stopped"));
      slot.worker.terminate();
    }
    this.waitingTotal = 0;
    for (const queue of this.queues.values())
      for (const p of queue) {
        if (p.timer) clearTimeout(p.timer);
        p.reject(sandboxError("sandbox_unavailable", "the sandbox workers stopped"));
      }
    this.queues.clear();
  }

  private statsOf(triggerId: string): TriggerCheckStats {
    let stats = this.stats.get(triggerId);
    if (!stats) {
      stats = { running: 0, waiting: 0, failed: 0, refused: 0, overloaded: 0 };
      this.stats.set(triggerId, stats);
    }
    return stats;
  }

  /** Starts a worker into `slot` (a new one, or one whose worker was dropped). */
  private start(slot: Slot = { worker: null as unknown as Worker, ready: false, busy: null, timer: null }): Slot {
    slot.worker = this.spawn();
    slot.ready = false;
    slot.worker.onmessage = (event: MessageEvent<CheckAnswer | { ready: true }>) => {
      if ("ready" in event.data) {
        slot.ready = true;
        this.pump();
        return;
      }
      this.settle(slot, event.data);
    };
    slot.worker.onerror = (event) => this.replace(slot, `the sandbox worker crashed: ${(event as ErrorEvent).message || "no message"}`);
    // A worker that never answers must not keep the process alive.
    (slot.worker as Worker & { unref?(): void }).unref?.();
    return slot;
  }

  /** Next evaluation for each idle worker: triggers take turns, none beyond its running limit. */
  private pump(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const next = this.nextPending();
      if (!next) return;
      this.dispatch(slot, next);
    }
  }

  private nextPending(): Pending | null {
    for (let i = 0; i < this.turn.length; i++) {
      const triggerId = this.turn[i];
      const stats = this.statsOf(triggerId);
      if (stats.running >= this.limitOf(triggerId)) continue;
      const queue = this.queues.get(triggerId)!;
      const pending = queue.shift()!;
      stats.waiting--;
      this.waitingTotal--;
      // This trigger goes to the back of the line.
      this.turn.splice(i, 1);
      if (queue.length > 0) this.turn.push(triggerId);
      else this.queues.delete(triggerId);
      return pending;
    }
    return null;
  }

  /**
   * Still waiting after maxWaitMs (every worker busy or not started): the server cannot keep up.
   * Given up as overload, never hanging a request; the trigger is not counted as failing.
   */
  private giveUp(pending: Pending): void {
    const queue = this.queues.get(pending.triggerId);
    const at = queue?.indexOf(pending) ?? -1;
    if (at === -1) return;
    queue!.splice(at, 1);
    if (queue!.length === 0) {
      this.queues.delete(pending.triggerId);
      this.turn = this.turn.filter((id) => id !== pending.triggerId);
    }
    const stats = this.statsOf(pending.triggerId);
    stats.waiting--;
    stats.overloaded++;
    this.waitingTotal--;
    pending.reject(new CheckPoolOverloaded(`no sandbox worker was free within ${this.maxWaitMs} ms`));
  }

  /** A trigger whose checks failed lately is contained; others may use every worker (triggers still take turns). */
  private limitOf(triggerId: string): number {
    return this.isContained(triggerId) ? this.perTrigger : this.size;
  }

  private isContained(triggerId: string): boolean {
    const failed = this.lastFailure.get(triggerId);
    return failed !== undefined && performance.now() - failed < this.containMs;
  }

  private failed(triggerId: string): void {
    this.statsOf(triggerId).failed++;
    this.lastFailure.set(triggerId, performance.now());
  }

  private dispatch(slot: Slot, pending: Pending): void {
    if (pending.timer) clearTimeout(pending.timer);
    slot.busy = pending;
    this.statsOf(pending.triggerId).running++;
    slot.timer = setTimeout(() => this.replace(slot, `the sandbox worker did not answer within ${this.hardTimeoutMs} ms and was replaced`), this.hardTimeoutMs);
    postCrossing(slot.worker, pending.body, (input) => ({ ...pending.job, input }) satisfies CheckJob);
  }

  private settle(slot: Slot, answer: CheckAnswer): void {
    const pending = slot.busy;
    if (!pending || pending.job.id !== answer.id) return;
    this.free(slot);
    if (answer.ok) pending.resolve(arrived(answer.result));
    else {
      if (answer.error.code?.startsWith("sandbox")) this.failed(pending.triggerId);
      pending.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name, code: answer.error.code }));
    }
    this.pump();
  }

  private free(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (slot.busy) this.statsOf(slot.busy.triggerId).running--;
    slot.busy = null;
  }

  /** A worker stuck past the hard bound (or crashed) is dropped; its evaluation fails; a new one starts. */
  private replace(slot: Slot, reason: string): void {
    const pending = slot.busy;
    this.free(slot);
    slot.worker.terminate();
    if (pending) {
      this.failed(pending.triggerId);
      pending.reject(sandboxError("sandbox_timeout", reason));
    }
    if (!this.closed) this.start(slot);
  }
}
