import type { SQL } from "bun";
import { isStoreAnswer, StoreUnavailable } from "../errors.ts";
import { withinDeadline } from "./deadline.ts";

/** The pool every role of the PostgreSQL store shares, and `guard`, the one way through it. */
export class PostgresConnection {
  private isClosed = false;

  constructor(
    readonly sql: SQL,
    /** How long one database call may take before its caller is answered 503. */
    private readonly deadlineMs: number,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /** Runs `work`, turning every database failure into StoreUnavailable (the API answers 503); an unknown cursor or a taken token stays what it is. */
  async guard<T>(work: (sql: SQL) => Promise<T>): Promise<T> {
    if (this.isClosed) throw new StoreUnavailable("the store is closed");
    try {
      return await withinDeadline(this.deadlineMs, work(this.sql));
    } catch (error) {
      if (isStoreAnswer(error) || error instanceof StoreUnavailable) throw error;
      throw new StoreUnavailable(`PostgreSQL: ${(error as Error)?.message ?? error}`);
    }
  }

  /** Refuses every later call, and closes the pool. */
  async close(): Promise<void> {
    this.isClosed = true;
    await this.sql.close({ timeout: 5 }).catch(() => {});
  }
}
