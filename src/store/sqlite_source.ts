import { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { sqlitePathIn } from "./sqlite/sqlite_store.ts";
import { MIGRATIONS } from "./sqlite/migrations.ts";
import { isServed } from "./sqlite/serve_lock.ts";

/** Why a data dir cannot be copied: the CLI prints the message as it is. */
export class SourceRefused extends Error {
  override name = "SourceRefused";
  readonly code = "source_refused";
}

/**
 * An embedded SQLite data dir opened for reading, to copy it elsewhere (`inlet migrate
 * --from-data-dir`). Nothing in the data dir is written: not the schema, not the key file.
 */
export interface SqliteSource {
  dir: string;
  path: string;
  db: Database;
  version: number;
  meta: Map<string, string>;
  /** `inlet.db-wal` was there: a server still has the file open (or stopped without closing it). */
  inUse: boolean;
  /** An `inlet serve` holds the data dir's serve lock: it is running now. */
  served: boolean;
  /** A sealed secret of some trigger (to test a key against when no fingerprint is recorded), or null. */
  sampleSealed: string | null;
  close(): void;
}

/** The schema version of an inlet SQLite file (0 when it has none), read without changing it. */
function sqliteSchemaVersion(db: Database): number {
  const table = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) return 0;
  return db.query<{ v: number | null }, []>("SELECT max(version) AS v FROM schema_migrations").get()?.v ?? 0;
}

/**
 * Opens an SQLite file for reading only. Not `readonly`: a read-only connection to a WAL database
 * leaves `-wal` and `-shm` files behind, which would look like a server still running. A
 * query-only read-write connection cannot change the data, and removes them when it closes last.
 */
function openQueryOnly(path: string): Database {
  const db = new Database(path, { readwrite: true, create: false, strict: true });
  db.exec("PRAGMA query_only = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}

export const SQLITE_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/** Opens `<dir>/inlet.db` read-only, after checking it is an inlet data dir this inlet can read. */
export function openSqliteSource(dirArg: string): SqliteSource {
  const dir = resolve(dirArg);
  if (!existsSync(dir)) throw new SourceRefused(`data dir ${dir} does not exist`);
  if (!statSync(dir).isDirectory()) throw new SourceRefused(`data dir ${dir} is not a directory`);
  const path = sqlitePathIn(dir);
  if (!existsSync(path)) throw new SourceRefused(`${dir} has no inlet.db: not the data dir of an 'inlet serve' (nothing to copy)`);
  // SQLite removes the WAL file when the last connection closes: it is there while a server runs.
  const inUse = existsSync(`${path}-wal`);
  let served: boolean;
  try {
    served = isServed(dir);
  } catch (error) {
    throw new SourceRefused(`${dir}/serve.lock cannot be read as a lock: ${(error as Error).message}`);
  }
  let db: Database;
  let version: number;
  try {
    db = openQueryOnly(path);
    version = sqliteSchemaVersion(db);
  } catch (error) {
    throw new SourceRefused(`${path} cannot be read as an SQLite database: ${(error as Error).message}`);
  }
  const refuse = (message: string): never => {
    db.close();
    throw new SourceRefused(message);
  };
  if (version === 0) refuse(`${path} is not an inlet database (it has no schema migrations)`);
  if (version > SQLITE_SCHEMA_VERSION) {
    refuse(`${path} was written by a newer inlet (schema version ${version}; this inlet knows up to ${SQLITE_SCHEMA_VERSION}): copy it with that version`);
  }
  // One read transaction from here to close(): every table is copied from the same snapshot, even
  // if a server still writes to the file (it should have been stopped: see `inlet help`).
  db.exec("BEGIN");
  const meta = new Map(
    db
      .query<{ key: string; value: string }, []>("SELECT key, value FROM meta")
      .all()
      .map((r) => [r.key, r.value]),
  );
  const sample = db
    .query<{ s: string }, []>(
      "SELECT coalesce(secret_sealed, app_secret_sealed) AS s FROM triggers WHERE coalesce(secret_sealed, app_secret_sealed) IS NOT NULL LIMIT 1",
    )
    .get();
  return {
    dir,
    path,
    db,
    version,
    inUse,
    served,
    meta,
    sampleSealed: sample?.s ?? null,
    close: () => {
      db.exec("COMMIT");
      db.close();
    },
  };
}
