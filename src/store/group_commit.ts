/** One piece of work waiting for the next grouped transaction. */
interface Pending<T> {
  apply: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Thrown inside a first pass to roll it back once an item failed. */
class ItemFailed extends Error {}

export interface GroupCommitOptions {
  /** Items per transaction at most (64). */
  maxBatch?: number;
  /** Maps a failure of the whole batch to the error each caller sees. */
  failure?: (error: unknown) => Error;
  /**
   * Runs `work` in a savepoint inside the transaction: undone if it throws (which it rethrows).
   * Required: without it a failing item's partial writes would commit with its neighbours.
   */
  savepoint: <T>(work: () => T) => T;
  /**
   * Resolves once what was committed before the call is on disk (see WalSync); callers are
   * answered only then. Absent: the transaction itself is durable when it returns.
   */
  durable?: () => Promise<void>;
}

/**
 * Group commit: work queued in the same turn of the event loop (up to `maxBatch`) runs in one
 * transaction, and each caller is answered once that transaction is on disk. Flushing when the
 * batch is full or the loop is idle (not on a timer) keeps latency low when lightly loaded
 * (docs/store.md#group-commit).
 *
 * Each item is atomic: it lands whole or not at all, and a failing item fails alone. The batch
 * first runs without savepoints (a savepoint per item costs as much as the item); when an item
 * throws, that pass is rolled back and the batch runs again with each item in its own savepoint,
 * so the failing item's partial writes are undone and its neighbours still commit. Items are
 * pure database work, so running one again is safe.
 */
export class GroupCommit {
  private queue: Pending<unknown>[] = [];
  private scheduled = false;
  /** Committed batches whose callers wait for `durable`. */
  private syncing = 0;
  private readonly maxBatch: number;
  private readonly failure: (error: unknown) => Error;
  private readonly savepoint: <T>(work: () => T) => T;
  private readonly durable: (() => Promise<void>) | null;

  constructor(
    /** Runs `work` inside one transaction and commits it; throws if it cannot commit. */
    private readonly transaction: (work: () => void) => void,
    options: GroupCommitOptions,
  ) {
    this.maxBatch = options.maxBatch ?? 64;
    this.failure = options.failure ?? ((e) => (e instanceof Error ? e : new Error(String(e))));
    this.savepoint = options.savepoint;
    this.durable = options.durable ?? null;
  }

  /** Queues `apply` (run inside the transaction) and resolves with its result after commit. */
  submit<T>(apply: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ apply, resolve, reject } as Pending<unknown>);
      if (this.queue.length >= this.maxBatch) this.flush();
      // While a batch is being flushed to disk, work gathers for the next: its callers would wait
      // for the next flush anyway, and one larger transaction costs less than several small ones.
      else if (!this.scheduled && this.syncing === 0) {
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
    let results: unknown[] = new Array(batch.length);
    const errors: unknown[] = new Array(batch.length);
    try {
      try {
        this.transaction(() => {
          for (let i = 0; i < batch.length; i++) {
            try {
              results[i] = batch[i].apply();
            } catch (error) {
              errors[i] = error;
              throw new ItemFailed();
            }
          }
        });
      } catch (error) {
        if (!(error instanceof ItemFailed)) throw error;
        results = new Array(batch.length);
        errors.fill(undefined);
        this.transaction(() => {
          for (let i = 0; i < batch.length; i++) {
            try {
              results[i] = this.savepoint(batch[i].apply);
            } catch (error) {
              // A failing item must not take its neighbours down; it is reported to its own caller.
              errors[i] = error;
            }
          }
        });
      }
    } catch (error) {
      const failed = this.failure(error);
      for (const item of batch) item.reject(failed);
      return;
    }
    const answer = () => {
      for (let i = 0; i < batch.length; i++) {
        if (errors[i] !== undefined) batch[i].reject(errors[i]);
        else batch[i].resolve(results[i]);
      }
    };
    if (!this.durable) return answer();
    this.syncing++;
    this.durable()
      .then(answer, (error) => {
        const failed = this.failure(error);
        for (const item of batch) item.reject(failed);
      })
      .finally(() => {
        this.syncing--;
        if (this.syncing === 0 && this.queue.length > 0 && !this.scheduled) this.flush();
      });
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Commits what is queued and resolves once every committed batch is durable and answered. */
  async drain(): Promise<void> {
    this.flush();
    while (this.syncing > 0) await Bun.sleep(1);
  }
}

/**
 * Group commit for a store that commits asynchronously (PostgreSQL): while a batch is being
 * committed, new work gathers into the next one, so under load each round trip and WAL flush
 * carries many requests, and a lone request still goes at once. At most `maxInFlight` batches
 * are committing at a time.
 */
export class AsyncGroupCommit<I, R> {
  private queue: Array<{ item: I; resolve: (value: R) => void; reject: (error: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Commits `items` in one transaction; resolves with one result per item, in order. */
    private readonly commit: (items: I[]) => Promise<R[]>,
    private readonly maxBatch = 256,
    private readonly maxInFlight = 2,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // Let the requests of this turn of the event loop join the batch.
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      this.commit(batch.map((b) => b.item))
        .then(
          (results) => batch.forEach((b, i) => b.resolve(results[i])),
          (error) => batch.forEach((b) => b.reject(error)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  /** Resolves once nothing is queued or committing. */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight > 0) await Bun.sleep(1);
  }
}
