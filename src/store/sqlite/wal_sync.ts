import { fdatasync } from "node:fs";

/** `fdatasync` on libuv's thread pool. */
const flushFile = (fd: number) => new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));

/**
 * Makes commits durable off the thread that made them. The connection commits with
 * `synchronous = NORMAL` (the WAL frames are written but not flushed at each commit; SQLite
 * still flushes around every checkpoint); `afterNow()` then resolves once an `fdatasync` of the
 * WAL file that began after the call has finished — on libuv's thread pool, so the event loop
 * goes on serving requests (and committing the next batch) meanwhile. One flush covers every
 * commit made before it began: while one is running, every caller that arrives waits for the
 * single next one.
 *
 * A failed flush fails for good. After an fdatasync error the kernel may have dropped the
 * unwritten pages and cleared the error, so a later flush could succeed over a hole in the WAL,
 * and commits answered after it would be lost with everything past the hole on recovery. Every
 * later caller is refused instead (the store answers 503 until inlet restarts and SQLite
 * recovers the WAL up to what was really flushed).
 */
export class WalSync {
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private broken: Error | null = null;

  constructor(
    private readonly fd: number,
    /** Flushes the file behind `fd` (tests replace it). */
    private readonly flush: (fd: number) => Promise<void> = flushFile,
  ) {}

  /** Why flushing stopped for good, or null while it works. */
  get failure(): Error | null {
    return this.broken;
  }

  /** Resolves when everything committed before this call is on disk; rejects if a flush ever failed. */
  afterNow(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.begin();
    const next = () => {
      this.queued = null;
      return this.begin();
    };
    this.queued = this.inFlight.then(next, next);
    return this.queued;
  }

  /** Resolves once no flush is running or waiting (whether it succeeded or not). */
  async idle(): Promise<void> {
    while (this.inFlight || this.queued) await (this.queued ?? this.inFlight)!.catch(() => {});
  }

  private begin(): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    const flush = this.flush(this.fd).catch((error: unknown) => {
      this.broken ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    });
    this.inFlight = flush;
    const done = () => {
      if (this.inFlight === flush) this.inFlight = null;
    };
    flush.then(done, done);
    return flush;
  }
}
