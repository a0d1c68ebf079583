/**
 * Rows of each table the retention sweep deletes per statement: a day's worth of expired rows
 * must not hold SQLite's request thread for seconds, nor run one PostgreSQL statement past the
 * store's deadline (it would then fail every minute and never finish).
 */
export const SWEEP_CHUNK = 1000;

/** Rows a sweep deleted, per table. */
export interface SweepCounts {
  dedupKeys: number;
  activity: number;
  runs: number;
  /** Alert notifications delivered before the cut-off. */
  notifications: number;
}

/** The store's own life: which one it is, whether it answers, serving, the retention sweep, closing. */
export interface Maintenance {
  readonly kind: "sqlite" | "postgres";
  /** Whether the store answers (for /readyz). */
  ping(): Promise<boolean>;
  /**
   * Called once by `inlet serve` before it takes requests (on SQLite, with the data dir's serve
   * lock held: see serve_lock.ts): SQLite loads its dedup index. Absent where there is nothing to
   * do (PostgreSQL, which instances share and each asks about dedup keys).
   */
  beginServing?(): Promise<void>;
  /**
   * Gauges of what the store holds in this process's memory, for `/metrics` (SQLite: its dedup
   * index, which grows with the live keys). Absent where nothing held in memory grows with the
   * data (PostgreSQL).
   */
  memoryGauges?(): Record<string, number>;
  /**
   * Deletes expired dedup keys, and Activity rows and finished runs older than `olderThan`, in
   * chunks of at most SWEEP_CHUNK rows per table (a long backlog never becomes one long statement).
   */
  sweep(now: Date, olderThan: Date): Promise<SweepCounts>;
  close(): Promise<void>;
}
