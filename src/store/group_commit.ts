/** One piece of work waiting for the next grouped transaction. */
interface Pending<T> {
  apply: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: work queued in the same turn of the event loop (up to `maxBatch`) runs in one
 * transaction, and each caller is answered once that transaction is on disk. Flushing when the
 * batch is full or the loop is idle (not on a timer) keeps latency low when lightly loaded
 * (research/baseline.md).
 */
export class GroupCommit {
  private queue: Pending<unknown>[] = [];
  private scheduled = false;

  constructor(
    /** Runs `work` inside one durable transaction; throws if it cannot commit. */
    private readonly transaction: (work: () => void) => void,
    private readonly maxBatch = 64,
    /** Maps a failure of the whole batch to the error each caller sees. */
    private readonly failure: (error: unknown) => Error = (e) => (e instanceof Error ? e : new Error(String(e))),
  ) {}

  /** Queues `apply` (run inside the transaction) and resolves with its result after commit. */
  submit<T>(apply: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ apply, resolve, reject } as Pending<unknown>);
      if (this.queue.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued now. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    const results: unknown[] = new Array(batch.length);
    const errors: unknown[] = new Array(batch.length);
    try {
      this.transaction(() => {
        for (let i = 0; i < batch.length; i++) {
          try {
            results[i] = batch[i].apply();
          } catch (error) {
            // A failing item must not take its neighbours down; it is reported to its own caller.
            errors[i] = error;
          }
        }
      });
    } catch (error) {
      const failed = this.failure(error);
      for (const item of batch) item.reject(failed);
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      if (errors[i] !== undefined) batch[i].reject(errors[i]);
      else batch[i].resolve(results[i]);
    }
  }

  get pending(): number {
    return this.queue.length;
  }
}
