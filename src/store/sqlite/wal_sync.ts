import { fdatasync } from "node:fs";

/**
 * Makes commits durable off the thread that made them. The connection commits with
 * `synchronous = OFF` (the WAL frames are written, not flushed); `afterNow()` then resolves once
 * an `fdatasync` of the WAL file that began after the call has finished — on libuv's thread
 * pool, so the event loop goes on serving requests (and committing the next batch) meanwhile.
 * One flush covers every commit made before it began: while one is running, every caller that
 * arrives waits for the single next one.
 */
export class WalSync {
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    fd: number,
    /** Flushes the file (tests replace it). */
    private readonly flush: () => Promise<void> = () => new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  ) {}

  /** Resolves when everything committed before this call is on disk; rejects if the flush failed. */
  afterNow(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.begin();
    const next = () => {
      this.queued = null;
      return this.begin();
    };
    this.queued = this.inFlight.then(next, next);
    return this.queued;
  }

  private begin(): Promise<void> {
    const flush = this.flush();
    this.inFlight = flush;
    const done = () => {
      if (this.inFlight === flush) this.inFlight = null;
    };
    flush.then(done, done);
    return flush;
  }
}
