import type { Database, Statement } from "bun:sqlite";
import { closeSync } from "node:fs";
import { isStoreAnswer, StoreUnavailable } from "../errors.ts";
import { GroupCommit } from "../group_commit.ts";
import type { OpenedDatabase } from "./open_database.ts";
import type { WalSync } from "./wal_sync.ts";

/**
 * What a write transaction tells whoever claims things inside it (DedupKeys): claims made in a
 * savepoint that rolls back, or in a transaction that fails, do not hold; the others hold once
 * the transaction has committed, never before.
 */
export interface TransactionClaims {
  /** A write transaction begins. */
  begin(): void;
  /** Where a savepoint begins: `rollBackTo` drops the claims made after it. */
  mark(): number;
  rollBackTo(mark: number): void;
  /** The transaction failed: none of its claims holds. */
  discard(): void;
  /** The transaction committed: its claims hold. */
  committed(): void;
}

/**
 * The one connection every role of the SQLite store shares, and the three ways through it: `guard`
 * (a read), `write` (rides the next grouped transaction) and `change` (a transaction of its own:
 * triggers, meta, sweeps). Writes are answered only once on disk (see SqliteStore).
 */
export class SqliteConnection {
  readonly db: Database;
  private readonly walFd: number | null;
  private readonly wal: WalSync | null;
  private readonly opened: OpenedDatabase;
  private readonly group: GroupCommit;
  /** Grouped transactions of the run queue's bookkeeping, answered at commit (see `writeCommitted`). */
  private readonly bookkeeping: GroupCommit;
  private readonly totalChangesQuery: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackToSavepoint: Statement;
  private isClosed = false;
  /** Whether the last grouped transaction changed any row (read by group commit's `durable`, right after it commits). */
  private batchChanged = true;
  /** The WAL flush last asked for: it covers every commit made before it was asked for. */
  private lastFlush: Promise<void> | null = null;
  private readonly lastRunSeq: Statement;
  /** The newest run (by seq) whose commit is on disk: see `runsOnDisk`. */
  private runsFlushed: number;
  /** WAL flushes asked for and not yet done. */
  private flushesPending = 0;

  constructor(
    opened: OpenedDatabase,
    private readonly claims: TransactionClaims,
    options: { groupCommit?: boolean },
  ) {
    this.opened = opened;
    this.db = opened.db;
    this.walFd = opened.walFd;
    this.wal = opened.wal;
    this.totalChangesQuery = this.prepare("SELECT total_changes() AS n");
    this.savepoint = this.prepare("SAVEPOINT item");
    this.release = this.prepare("RELEASE item");
    this.rollbackToSavepoint = this.prepare("ROLLBACK TO item");
    // AUTOINCREMENT keeps the newest seq given here, whatever was deleted since.
    this.lastRunSeq = this.prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'runs'), 0) AS n");
    // What the file holds when it is opened is on disk.
    this.runsFlushed = this.newestRun();
    const begin = this.db.transaction((work: () => void) => work());
    // Both groups commit on this one connection, the same way; only the requests' group waits for the WAL flush.
    const grouped = (durable?: () => Promise<void>) =>
      new GroupCommit((work) => this.committing(() => begin.immediate(work)), {
        maxBatch: options.groupCommit === false ? 1 : 64,
        failure: (error) => (error instanceof StoreUnavailable ? error : new StoreUnavailable(`SQLite commit failed: ${(error as Error)?.message ?? error}`)),
        savepoint: (work) => this.inSavepoint(work),
        durable,
      });
    this.bookkeeping = grouped();
    this.group = grouped(
      this.wal
        ? () =>
            this.durableAfter(this.batchChanged).catch((error) =>
              Promise.reject(new StoreUnavailable(`SQLite: committed, but the WAL could not be flushed to disk: ${(error as Error)?.message ?? error}`)),
            )
        : undefined,
    );
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** A statement finalized when the connection closes. */
  prepare(sql: string): Statement {
    return this.opened.statements.prepare(sql);
  }

  /** Rows inserted, updated or deleted on this connection since it opened (rolled-back ones included). */
  private totalChanges(): number {
    return (this.totalChangesQuery.get() as { n: number }).n;
  }

  /** Resolves once everything committed so far is on disk. */
  private flushed(): Promise<void> {
    if (!this.wal) return Promise.resolve();
    const runs = this.newestRun();
    const flush = this.wal.afterNow();
    this.flushesPending++;
    flush.then(
      () => {
        this.flushesPending--;
        if (runs > this.runsFlushed) this.runsFlushed = runs;
      },
      () => this.flushesPending--,
    );
    return (this.lastFlush = flush);
  }

  private newestRun(): number {
    return (this.lastRunSeq.get() as { n: number }).n;
  }

  /**
   * The newest run (by seq) whose commit is on disk, so its request may have been answered: a
   * claim takes no run past it. The run queue's bookkeeping is answered at commit and a claim
   * sees every committed row, so without this a run could start a moment before its request's
   * flush finished — and be delivered for a request that flush then failed (the caller got a
   * 503 and sent it again). Without a WAL flush of its own, every commit is on disk already; and
   * while none of this connection's flushes is under way, so is every run in the file — runs
   * another process committed (`inlet triggers replay` beside a running server) included.
   */
  runsOnDisk(): number {
    if (!this.wal) return Number.MAX_SAFE_INTEGER;
    if (this.flushesPending === 0) this.runsFlushed = Math.max(this.runsFlushed, this.newestRun());
    return this.runsFlushed;
  }

  /**
   * Resolves once a transaction just committed is on disk. One that changed no row wrote no WAL
   * frame: it waits only for the flush last asked for (which covers every earlier durable commit
   * whose rows it may have read; the run queue's bookkeeping, answered at commit, asks for none),
   * and when that is done, for nothing.
   */
  private durableAfter(changed: boolean): Promise<void> {
    return changed ? this.flushed() : (this.lastFlush ?? Promise.resolve());
  }

  /** A write outside group commit (triggers, meta, sweeps): answered once it is on disk. */
  async change<T>(work: () => T): Promise<T> {
    const refused = this.refusesWrites();
    if (refused) throw refused;
    const before = this.totalChanges();
    const outcome = this.guard(work);
    // Asked for at once, as group commit does, so no transaction committed after this one is
    // answered before this one's flush has been asked for.
    const durable = this.durableAfter(this.totalChanges() > before);
    durable.catch(() => {}); // awaited below, after the outcome
    const result = await outcome;
    try {
      await durable;
    } catch (error) {
      throw new StoreUnavailable(`SQLite: the write could not be flushed to disk: ${(error as Error)?.message ?? error}`);
    }
    return result;
  }

  private inSavepoint<T>(work: () => T): T {
    const mark = this.claims.mark();
    this.savepoint.run();
    try {
      const result = work();
      this.release.run();
      return result;
    } catch (error) {
      this.rollbackToSavepoint.run();
      this.release.run();
      this.claims.rollBackTo(mark);
      throw error;
    }
  }

  /** Runs a write transaction: what it claimed holds once it has committed, never before. */
  private committing(transaction: () => void): void {
    this.claims.begin();
    const before = this.totalChanges();
    try {
      transaction();
    } catch (error) {
      this.claims.discard();
      throw error;
    }
    this.batchChanged = this.totalChanges() > before;
    this.claims.committed();
  }

  /** A write that rides the next grouped transaction: durable when it resolves. */
  write<T>(work: () => T): Promise<T> {
    const refused = this.refusesWrites();
    return refused ? Promise.reject(refused) : this.group.submit(work);
  }

  /**
   * A write of the run queue's own bookkeeping (claims, attempts, a run's end), in grouped
   * transactions of its own that never wait behind a WAL flush, answered once committed: the next
   * flush (the next accepted request's, or a checkpoint's) takes it to disk. Committed is enough:
   * a crash of inlet keeps what it committed (the OS has it), and after a power loss a run whose
   * claim or end was not yet flushed is found queued or running and executed again at start —
   * runs are at-least-once anyway (docs/store.md#runs-claims-and-leases). Accepted requests never take
   * this way: they are answered only once on disk.
   */
  writeCommitted<T>(work: () => T): Promise<T> {
    const refused = this.refusesWrites();
    return refused ? Promise.reject(refused) : this.bookkeeping.submit(work);
  }

  /** Why no write is taken now: closed, or a WAL flush failed (WalSync) — until a restart. */
  refusesWrites(): StoreUnavailable | null {
    if (this.isClosed) return new StoreUnavailable("the store is closed");
    const failure = this.wal?.failure;
    return failure ? new StoreUnavailable(`SQLite: a WAL flush failed (${failure.message}); nothing more is written until inlet restarts`) : null;
  }

  /** A read (or a write in `change`): its failure becomes StoreUnavailable (the API answers 503), an unknown cursor or a taken token stays what it is. */
  guard<T>(work: () => T): Promise<T> {
    if (this.isClosed) return Promise.reject(new StoreUnavailable("the store is closed"));
    try {
      return Promise.resolve(work());
    } catch (error) {
      if (isStoreAnswer(error)) return Promise.reject(error);
      return Promise.reject(new StoreUnavailable(`SQLite: ${(error as Error)?.message ?? error}`));
    }
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await Promise.all([this.bookkeeping.drain(), this.group.drain()]);
    // A flush of a write outside group commit (meta, triggers, a sweep's chunk) may still run on
    // the descriptor: it is closed after.
    await this.wal?.idle();
    // With a statement left open SQLite closes lazily and keeps the WAL (PreparedStatements).
    this.opened.statements.finalizeAll();
    this.db.close();
    if (this.walFd !== null) closeSync(this.walFd);
  }
}
