import type { Database, Statement } from "bun:sqlite";

/**
 * The statements every role of the SQLite store prepares on its one connection, finalized
 * together before it closes: with a statement left open SQLite closes lazily and keeps the WAL,
 * which a later reader (the move to PostgreSQL) takes for a server still running.
 */
export class PreparedStatements {
  private readonly all: Statement[] = [];

  constructor(private readonly db: Database) {}

  prepare(sql: string): Statement {
    const statement = this.db.prepare(sql);
    this.all.push(statement);
    return statement;
  }

  finalizeAll(): void {
    for (const statement of this.all) statement.finalize();
  }
}
