import { Database } from "bun:sqlite";
import { mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { SchemaTooNew } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";
import { ownerOnlyDatabase } from "./owner_only_database.ts";
import { PreparedStatements } from "./prepared_statements.ts";
import { WalSync } from "./wal_sync.ts";

/** The page size of a database this store creates (see openDatabase). */
const PAGE_SIZE = 8192;

/** The SQLite file opened, migrated and ready for the store's roles. */
export interface OpenedDatabase {
  db: Database;
  /** The WAL file's descriptor and what flushes it; null for an in-memory database (nothing to flush). */
  walFd: number | null;
  wal: WalSync | null;
  /** Where the roles prepare their statements (finalized together at close). */
  statements: PreparedStatements;
  /** Migration versions this open applied (for `inlet migrate`). */
  applied: number[];
}

/** Opens (or creates) the database file at `path`, applies pending migrations, and hands its WAL to WalSync. */
export function openDatabase(path: string, flushWal?: (fd: number) => Promise<void>): OpenedDatabase {
  // Private (the dir 0700 when made here, the files 0600 in any case): the database holds
  // payloads, the admin token's hash and sealed secrets.
  if (path !== ":memory:") {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    ownerOnlyDatabase(path);
  }
  const db = new Database(path, { create: true, strict: true });
  // A new database gets 8 KB pages (an existing one keeps its own: the size is fixed once a table
  // exists). Measured on the full configuration against SQLite's 4 KB default: 1 KB bodies 52 vs
  // 54-55 µs of CPU per request, 64 KB bodies 588-605 vs 618-625 µs (fewer WAL frames and
  // overflow pages per row); 16 KB pages were better for 64 KB bodies but worse for 1 KB ones.
  db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  db.exec("PRAGMA journal_mode = WAL");
  // FULL (each commit flushed) while migrating, and for an in-memory database; see below.
  db.exec("PRAGMA synchronous = FULL");
  db.exec("PRAGMA busy_timeout = 5000");
  // A savepoint's journal (see GroupCommit) in memory, not a temporary file per transaction.
  db.exec("PRAGMA temp_store = MEMORY");
  const applied = applyMigrations(db, path);
  // A read-only file fails here, at start, with the file named, not at the first request.
  db.run("UPDATE meta SET value = value WHERE key = 'triggers_revision'");
  let walFd: number | null = null;
  let wal: WalSync | null = null;
  if (path !== ":memory:") {
    // From here on, each batch's commit is flushed by WalSync (see SqliteStore).
    db.exec("PRAGMA synchronous = NORMAL");
    walFd = openSync(`${path}-wal`, "r");
    wal = new WalSync(walFd, flushWal);
  }
  return { db, walFd, wal, statements: new PreparedStatements(db), applied };
}

/** Applies the migrations the file lacks, each in its own transaction; the versions applied. */
function applyMigrations(db: Database, path: string): number[] {
  const applied: number[] = [];
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  const done = new Set(
    db
      .query<{ version: number }, []>("SELECT version FROM schema_migrations")
      .all()
      .map((r) => r.version),
  );
  const known = Math.max(...MIGRATIONS.map((m) => m.version));
  const found = Math.max(0, ...done);
  if (found > known) throw new SchemaTooNew(`SQLite at ${path}`, found, known);
  for (const migration of MIGRATIONS) {
    if (done.has(migration.version)) continue;
    applied.push(migration.version);
    db.transaction(() => {
      db.exec(migration.sql);
      db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [migration.version, migration.name, new Date().toISOString()]);
    }).immediate();
  }
  return applied;
}
