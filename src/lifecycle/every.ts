/** A task repeated on a timer, never two runs at once (see `every`). */
export interface Repeating {
  /**
   * Runs the task now, or — while a run is in progress — once more right after it (several such
   * calls meanwhile make one more run). Resolves when that run has ended; never rejects.
   */
  now(): Promise<void>;
  /** No more ticks; waits for the run in progress, if any. A later `now()` does nothing. */
  stop(): Promise<void>;
  /** Whether a run is in progress. */
  readonly running: boolean;
}

export interface EveryOptions {
  /** Where a run's failure goes (the loop goes on). */
  onError?: (error: unknown) => void;
  /** Runs once at once, not only after the first interval. */
  immediately?: boolean;
}

/**
 * Runs `task` every `ms` milliseconds, never overlapping: a tick that finds the previous run still
 * going is skipped (a large backlog may take longer than the interval), and `now()` asks for a run
 * at once. The timer does not keep the process alive.
 *
 * @example
 * ```ts
 * const sweep = every(60_000, () => store.sweep(new Date()), { immediately: true, onError: warn });
 * // … on shutdown:
 * await sweep.stop();
 * ```
 */
export function every(ms: number, task: () => unknown, options: EveryOptions = {}): Repeating {
  let running: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  let stopped = false;

  const runOnce = (): Promise<void> =>
    (running = (async () => {
      try {
        await task();
      } catch (error) {
        options.onError?.(error);
      }
    })().finally(() => (running = null)));

  const now = (): Promise<void> => {
    if (stopped) return running ?? Promise.resolve();
    if (!running) return runOnce();
    // One more run after this one, shared by every caller that asks meanwhile.
    again ??= running.then(() => {
      again = null;
      return stopped ? undefined : runOnce();
    });
    return again;
  };

  const timer = setInterval(() => {
    if (!running) void runOnce();
  }, ms);
  (timer as { unref?(): void }).unref?.();
  if (options.immediately) void runOnce();

  return {
    now,
    get running() {
      return running !== null;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await (again ?? running);
    },
  };
}
