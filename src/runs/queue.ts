import { hostname } from "node:os";
import type { ClaimedRun, DirectSlot, RunRecord } from "../records/run.ts";
import type { RunLeases } from "../store/run_leases.ts";
import type { DestinationLoad, DestinationStates } from "../store/destination_states.ts";
import type { DestinationState } from "../records/destination_state.ts";
import { DEFAULT_WORKFLOW_RESPONSE_TIMEOUT_MS, type TriggerRecord } from "../records/trigger.ts";
import { every, type Repeating } from "../lifecycle/every.ts";
import { DEFAULT_BREAKER, DEFAULT_CONCURRENCY, DEFAULT_DESTINATION, destinationOf, respondingDestination } from "../records/destination.ts";
import { stateKey } from "../store/destination_flow.ts";
import type { DestinationRules } from "../store/destination_flow.ts";
import { RunAborted, type RunContext, type RunOutcome } from "./types.ts";

/** Executes one run with its trigger's workflow (see `createRunners`). */
export type ExecuteRun = (trigger: TriggerRecord, run: ClaimedRun, context: RunContext) => Promise<RunOutcome>;

export interface RunQueueOptions {
  store: RunLeases & Pick<DestinationStates, "recordDelivery" | "destinationStates" | "allDestinationStates" | "destinationLoads">;
  triggers: { get(id: string): TriggerRecord | undefined };
  execute: ExecuteRun;
  /** Runs executing at once (workflow response mode runs start at once and are not counted). */
  concurrency: number;
  /**
   * Workflow response mode runs started at once, at most (default 8 × concurrency, at least 64):
   * past it, a caller's run waits in the queue like any other, so a flood of callers cannot start
   * an unbounded number of commands or requests. Well above what the run concurrency allows, so
   * a slow run of one caller does not hold the others.
   */
  directLimit?: number;
  /** How often the store is asked for runs nobody picked up (after a restart, or while saturated). */
  pollMs?: number;
  /** How long a claim holds without renewal (renewed every third of it while the run executes). */
  leaseMs?: number;
  owner?: string;
  now?: () => Date;
  log?: (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;
}

interface Waiter {
  promise: Promise<RunOutcome | null>;
  resolve(outcome: RunOutcome | null): void;
  /** Until when the caller waits (ms): a run given back meanwhile stays reserved for this instance until then. */
  untilMs?: number;
}

/**
 * The run queue: executes committed runs with bounded concurrency. A run starts at once when it is
 * committed and a slot is free (workflow response mode runs start at once regardless); others
 * wait in the store and are claimed by polling. Every start goes through the store's atomic claim
 * (queued → running), so no run executes twice in one process, whichever path saw it first.
 */
export class RunQueue {
  readonly owner: string;
  private readonly store: RunLeases & Pick<DestinationStates, "recordDelivery" | "destinationStates" | "allDestinationStates" | "destinationLoads">;
  private readonly concurrency: number;
  private readonly directLimit: number;
  /** Workflow response mode runs executing now or leased for their commit (`leaseFor`), not counted in `active`. */
  private direct = 0;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly now: () => Date;
  private readonly log: NonNullable<RunQueueOptions["log"]>;
  private readonly running = new Map<string, AbortController>();
  private readonly tasks = new Set<Promise<void>>();
  /** Claims in flight: stop() waits for them so nothing claimed starts after it returns. */
  private readonly claims = new Set<Promise<unknown>>();
  private readonly waiters = new Map<string, Waiter>();
  private active = 0;
  /** Shared slots held (or being claimed) by each destination's runs on this instance. */
  private readonly sharedHeld = new Map<string, number>();
  private stopping = false;
  /** The store is asked for runs every `pollMs`, and at once whenever a slot frees while runs wait (`poll`). */
  private poller: Repeating | null = null;
  private heartbeat: Repeating | null = null;
  /** Destinations paused now (as of the last read of the store, every second, and this instance's own pauses). */
  private paused = new Set<string>();
  /** The destinations' states and loads as last read (every second), for `/metrics`. */
  private states: DestinationState[] = [];
  private loads: DestinationLoad[] = [];
  private stateReader: Repeating | null = null;

  constructor(private readonly options: RunQueueOptions) {
    this.store = options.store;
    this.concurrency = Math.max(1, options.concurrency);
    this.directLimit = Math.max(1, options.directLimit ?? Math.max(64, this.concurrency * 8));
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.now = options.now ?? (() => new Date());
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
    this.log = options.log ?? (() => {});
  }

  /**
   * A destination's limits (README "Limits, the breaker and pause"): its `concurrency`, 2 by
   * default (the workflow shorthand's one destination too), so a destination whose target hangs
   * never holds every slot, and its `rateLimit`. Null (no limits) for a trigger or destination that is gone.
   */
  private readonly rulesOf = (triggerId: string, destination: string): DestinationRules | null => {
    const trigger = this.options.triggers.get(triggerId);
    const found = trigger ? destinationOf(trigger, destination) : undefined;
    if (!found) return null;
    return { concurrency: found.concurrency ?? DEFAULT_CONCURRENCY, ...(found.rateLimit ? { perSecond: found.rateLimit.perSecond } : {}) };
  };

  /**
   * A destination's limits for a claim into the shared slots (`--run-concurrency`): beside its
   * own limits, it never takes the last of them (README "Limits, the breaker and pause"): one
   * destination whose target hangs, whatever its `concurrency`, leaves a slot to the others.
   */
  private readonly sharedRulesOf = (triggerId: string, destination: string): DestinationRules | null => {
    const rules = this.rulesOf(triggerId, destination);
    if (!rules || this.concurrency <= 1) return rules;
    return { ...rules, startsAtMost: this.concurrency - 1 - (this.sharedHeld.get(stateKey(triggerId, destination)) ?? 0) };
  };

  /** Takes a shared slot for a claimed run's destination; the returned function gives it back (and frees the slot). */
  private holdShared(triggerId: string, destination: string): () => void {
    const key = stateKey(triggerId, destination);
    this.sharedHeld.set(key, (this.sharedHeld.get(key) ?? 0) + 1);
    return () => {
      const left = (this.sharedHeld.get(key) ?? 1) - 1;
      if (left > 0) this.sharedHeld.set(key, left);
      else this.sharedHeld.delete(key);
      this.freeSlot();
    };
  }

  /**
   * What tells an http destination's breaker how each attempt of `run` went, and whether the run
   * may go on (README "Limits, the breaker and pause"): after its own failed attempt, false once
   * that opened the breaker; before a retry, false while it is not closed (another run opened it,
   * or one run is being tried half-open). The run then goes back to the queue and spends no
   * attempt meanwhile. Nothing where there is no breaker (another kind, `failures: 0`).
   */
  private breakerOf(trigger: TriggerRecord | undefined, run: RunRecord): Pick<RunContext, "attemptEnded" | "mayAttempt"> {
    const destination = trigger ? destinationOf(trigger, run.destination) : undefined;
    if (!destination || destination.workflow.kind !== "http") return {};
    const rule = {
      failures: destination.breaker?.failures ?? DEFAULT_BREAKER.failures,
      openSeconds: destination.breaker?.openSeconds ?? DEFAULT_BREAKER.openSeconds,
    };
    if (rule.failures <= 0) return {};
    const warn = (what: string) => (error: unknown) => {
      this.log("warn", what, { runId: run.id, error: String(error) });
      // Not known: the run goes on (its retries are bounded by maxAttempts either way).
      return true;
    };
    return {
      attemptEnded: (ok) =>
        this.store
          .recordDelivery(run.triggerId, destination.name, rule, ok, this.now())
          .then((state) => state.breaker !== "open", warn("could not record a delivery for the breaker")),
      mayAttempt: () =>
        this.store
          .destinationStates(run.triggerId)
          .then((states) => (states.find((s) => s.destination === destination.name)?.breaker ?? "closed") === "closed", warn("could not read the breaker")),
    };
  }

  /**
   * Whether a destination is paused (README "Limits, the breaker and pause"): its runs are still
   * made but wait; a workflow response mode caller whose responding destination is paused gets
   * the plain acknowledgement instead of waiting for a run that will not start.
   */
  isPaused(triggerId: string, destination: string): boolean {
    return this.paused.has(stateKey(triggerId, destination));
  }

  /** Reads the destinations' states again (every second; at once after a pause or resume through this instance). */
  async readStates(): Promise<void> {
    const [states, loads] = await Promise.all([this.store.allDestinationStates(), this.store.destinationLoads()]);
    this.states = states;
    this.loads = loads;
    this.paused = new Set(states.filter((s) => s.paused).map((s) => stateKey(s.triggerId, s.destination)));
    // A resumed destination's runs may start now.
    this.poll();
  }

  /** The destinations' states and loads as last read (at most a second old). */
  destinationsNow(): { states: DestinationState[]; loads: DestinationLoad[] } {
    return { states: this.states, loads: this.loads };
  }

  /** Direct slots held now (waiting callers' runs, claimed or being claimed). */
  get directInUse(): number {
    return this.direct;
  }

  /** Runs executing now. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Requeues what a crashed process left running, then starts polling. */
  async start(): Promise<void> {
    const requeued = await this.store.requeueAbandonedRuns(this.now());
    if (requeued > 0) this.log("info", "requeued runs left running by a previous process", { runs: requeued });
    this.poller = every(this.pollMs, () => this.pollOnce());
    this.heartbeat = every(Math.max(1000, this.leaseMs / 3), () => this.renewLeases());
    this.stateReader = every(1000, () => this.readStates(), {
      immediately: true,
      onError: (error) => this.log("warn", "could not read destination states", { error: String(error) }),
    });
    this.poll();
  }

  /**
   * A slot for a run about to be committed that should execute here: the caller of a workflow
   * response mode trigger waits on this instance, so its run does not wait for the shared slots.
   * Null for other runs, and once stopping.
   */
  directSlotFor(trigger: TriggerRecord): DirectSlot | null {
    if (trigger.response.mode !== "workflow" || this.stopping || this.direct >= this.directLimit) return null;
    const responder = respondingDestination(trigger);
    if (responder && this.isPaused(trigger.id, responder.name)) return null;
    // Its slot is taken now, not when the run starts after its commit: a burst of callers
    // arriving in one commit's time cannot all get past the limit.
    this.direct++;
    let held = true;
    return {
      // Kept for this instance while its caller may still wait for the answer.
      reservation: { owner: this.owner, untilMs: this.now().getTime() + (trigger.response.timeoutMs ?? DEFAULT_WORKFLOW_RESPONSE_TIMEOUT_MS) },
      release: () => {
        if (!held) return;
        held = false;
        this.direct--;
      },
    };
  }

  /**
   * The pipeline's hook: a run was durably committed; `slot` when one was taken for it
   * (`directSlotFor`): it is claimed now in that slot, under its destination's limits like every
   * run (its concurrency, rate limit, breaker, pause); a destination at its limit leaves it queued
   * for the queue to start in turn, the caller waiting for it meanwhile.
   */
  onCommitted(trigger: TriggerRecord, run: RunRecord, slot: DirectSlot | null = null): void {
    if (slot) {
      this.waiterFor(run.id);
      this.claimInDirectSlot(run.id, trigger, slot);
      return;
    }
    if (run.status !== "queued" || this.stopping) return;
    // Claimed at once, not left to a poll in progress: a poll whose claim hangs (a database
    // connection lost mid-outage) must not hold back every new run. (So a run committed while a
    // poll's claim is under way can take one slot past its destination's share until it ends.)
    if (this.active < this.concurrency) this.claimAndExecute(run, trigger);
    // A poll in progress may have looked before this commit: once more after it. Else the next
    // slot to free asks for it.
    else if (this.poller?.running) this.poll();
  }

  /**
   * Waits for a run's outcome, at most `timeoutMs`; null on timeout (the run goes on and is
   * recorded) or when the server stops first.
   */
  async waitFor(runId: string, timeoutMs: number): Promise<RunOutcome | null> {
    const waiter = this.waiterFor(runId);
    waiter.untilMs = this.now().getTime() + timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    try {
      return await Promise.race([waiter.promise, timeout]);
    } finally {
      clearTimeout(timer);
      if (this.waiters.get(runId) === waiter) this.waiters.delete(runId);
    }
  }

  /**
   * Stops claiming, waits up to `drainMs` for executing runs to finish, then aborts the rest,
   * which go back to the queue for the next start.
   */
  async stop(drainMs: number): Promise<void> {
    this.stopping = true;
    await Promise.all([this.poller?.stop(), this.heartbeat?.stop(), this.stateReader?.stop()]);
    await Promise.allSettled([...this.claims]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...this.tasks]), new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)))]);
    clearTimeout(timer);
    for (const controller of this.running.values()) controller.abort(new RunAborted());
    await Promise.allSettled([...this.tasks]);
    for (const waiter of this.waiters.values()) waiter.resolve(null);
    this.waiters.clear();
  }

  private waiterFor(runId: string): Waiter {
    let waiter = this.waiters.get(runId);
    if (!waiter) {
      let resolve!: (outcome: RunOutcome | null) => void;
      const promise = new Promise<RunOutcome | null>((r) => (resolve = r));
      waiter = { promise, resolve };
      this.waiters.set(runId, waiter);
    }
    return waiter;
  }

  private claimInDirectSlot(runId: string, trigger: TriggerRecord, slot: DirectSlot): void {
    const gaveBack = () => {
      slot.release();
      // Still queued: the queue's own slots take it once its destination allows.
      this.poll();
    };
    this.track(this.store.claimRun(runId, this.owner, this.leaseMs, this.now(), this.rulesOf)).then(
      (claimed) => (claimed ? this.execute(claimed, trigger, slot.release) : gaveBack()),
      (error: unknown) => {
        this.log("warn", "could not claim a run", { runId, error: String(error) });
        gaveBack();
      },
    );
  }

  private claimAndExecute(run: RunRecord, trigger: TriggerRecord): void {
    this.active++;
    const rules = this.sharedRulesOf(run.triggerId, run.destination ?? DEFAULT_DESTINATION);
    // Counted before the claim, so a poll meanwhile sees the slot taken.
    const release = this.holdShared(run.triggerId, run.destination ?? DEFAULT_DESTINATION);
    this.track(this.store.claimRun(run.id, this.owner, this.leaseMs, this.now(), () => rules)).then(
      (claimed) => {
        if (claimed) this.execute(claimed, trigger, release);
        else {
          // Not queued any more, or its destination is at its limit: freeing the slot polls again.
          release();
        }
      },
      (error: unknown) => {
        // Still queued in the store: the next poll picks it up.
        this.log("warn", "could not claim a run", { runId: run.id, error: String(error) });
        release();
      },
    );
  }

  /**
   * Frees one of the `concurrency` slots (counted in `active`), and asks for the next run: a
   * destination at its limit may have runs waiting that only the end of one of its runs lets start.
   */
  private readonly freeSlot = (): void => {
    this.active--;
    this.poll();
  };

  /** Asks the store for runs now (or, while a poll is in progress, once more after it). */
  private poll(): void {
    if (!this.stopping) void this.poller?.now();
  }

  private async pollOnce(): Promise<void> {
    if (this.stopping) return;
    const free = this.concurrency - this.active;
    if (free <= 0) return;
    this.active += free;
    try {
      const claimed = await this.track(this.store.claimRuns(this.owner, free, this.leaseMs, this.now(), this.sharedRulesOf));
      this.active -= free - claimed.length;
      for (const run of claimed) this.execute(run, undefined, this.holdShared(run.triggerId, run.destination ?? DEFAULT_DESTINATION));
    } catch (error) {
      this.active -= free;
      this.log("warn", "could not claim queued runs", { error: String(error) });
    }
  }

  private track<T>(claim: Promise<T>): Promise<T> {
    this.claims.add(claim);
    claim.then(
      () => this.claims.delete(claim),
      () => this.claims.delete(claim),
    );
    return claim;
  }

  /** Executes a claimed run in a slot taken for it; `freeSlot` gives the slot back (called once). */
  private execute(run: ClaimedRun, known: TriggerRecord | undefined, freeSlot: () => void): void {
    if (this.stopping) {
      // Claimed while the server began to stop: back to the queue for the next start.
      const task = this.store
        .releaseRuns(this.owner, [run.id])
        .catch((error) => this.log("warn", "could not release a run", { runId: run.id, error: String(error) }))
        .finally(() => {
          this.tasks.delete(task);
          freeSlot();
        });
      this.tasks.add(task);
      return;
    }
    const controller = new AbortController();
    this.running.set(run.id, controller);
    const context: RunContext = {
      signal: controller.signal,
      recordAttempt: (attempts, result) =>
        this.store.recordAttempt(run.id, this.owner, attempts, result).catch((error) => {
          this.log("warn", "could not record an attempt", { runId: run.id, error: String(error) });
          return false;
        }),
      ...this.breakerOf(known ?? this.options.triggers.get(run.triggerId), run),
    };
    let freed = false;
    // The slot frees when the runner returns, not when its end is on disk: the next run need not
    // wait for that commit (the run is still held by this process meanwhile).
    const free = () => {
      if (freed) return;
      freed = true;
      this.running.delete(run.id);
      freeSlot();
    };
    const task = this.complete(run, known, context, free).finally(() => {
      free();
      this.tasks.delete(task);
    });
    this.tasks.add(task);
  }

  private async complete(run: ClaimedRun, known: TriggerRecord | undefined, context: RunContext, runnerDone: () => void): Promise<void> {
    let outcome: RunOutcome | null;
    try {
      const trigger = known ?? this.options.triggers.get(run.triggerId);
      outcome = trigger
        ? await this.options.execute(trigger, run, context)
        : { status: "failed", attempts: run.attempts, error: "the trigger no longer exists", result: null, answer: null };
    } catch (error) {
      if (error instanceof RunAborted || context.signal.aborted) outcome = null;
      else {
        this.log("error", "a runner failed", { runId: run.id, error: String((error as Error)?.stack ?? error) });
        outcome = {
          status: "failed",
          attempts: Math.max(1, run.attempts),
          error: `internal error: ${(error as Error)?.message ?? error}`,
          result: null,
          answer: null,
        };
      }
    }
    runnerDone();
    const finish = outcome && {
      status: outcome.status,
      result: outcome.result,
      error: outcome.error,
      attempts: outcome.attempts,
      finishedAt: this.now().toISOString(),
    };
    await this.recordEnd(run.id, async () => {
      // Given back while a caller here still waits for it (its breaker opened): kept for this instance.
      const waiting = this.stopping ? undefined : this.waiters.get(run.id)?.untilMs;
      if (!finish) await this.store.releaseRuns(this.owner, [run.id], waiting);
      else if (!(await this.store.finishRun(run.id, this.owner, finish)))
        this.log("warn", "a finished run was no longer held by this process", { runId: run.id });
    });
    const waiter = this.waiters.get(run.id);
    // A run given back while the server goes on (its breaker opened) is still to come: its caller keeps waiting.
    if (waiter && (outcome || this.stopping)) {
      this.waiters.delete(run.id);
      waiter.resolve(outcome);
    }
    // The next run of this key may start now, not at the next poll.
    if (run.orderingKey && finish) this.poll();
  }

  /**
   * Records a run's end, retrying while the store is unreachable (a database restart) for as long
   * as the lease would still hold, so the run is not executed a second time after a short outage.
   * Past that, or when stopping, it stays `running` in the store and is taken over once its lease
   * lapses (at-least-once).
   */
  private async recordEnd(runId: string, write: () => Promise<void>): Promise<void> {
    const giveUpAt = Date.now() + (this.leaseMs * 2) / 3;
    for (let delay = 250; ; delay = Math.min(delay * 2, 4000)) {
      try {
        await write();
        return;
      } catch (error) {
        if (this.stopping || Date.now() + delay > giveUpAt) {
          this.log("error", "could not record a run's end", { runId, error: String(error) });
          return;
        }
        await Bun.sleep(delay);
      }
    }
  }

  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) return;
    await this.store
      .renewLeases(this.owner, [...this.running.keys()], this.leaseMs, this.now())
      .catch((error) => this.log("warn", "could not renew run leases", { error: String(error) }));
  }
}
