import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ownerOnlyDatabase } from "./owner_only_database.ts";

/** Another `inlet serve` holds the data dir. */
export class DataDirInUse extends Error {
  override name = "DataDirInUse";
  readonly code = "data_dir_in_use";
}

/**
 * Takes the data dir's serve lock: an exclusive lock on `serve.lock` (an empty SQLite file, mode 0600),
 * held by the returned connection until it is closed, and by the system until the process ends,
 * however it ends. One server per SQLite store: it owns the runs it leases, and its index of
 * dedup keys is the one that decides which requests are new. Taken before the store is opened,
 * so a second server neither migrates nor writes anything. Keep the connection referenced: once
 * collected, it is closed and the lock gone. Makes the data dir (0700) when there is none yet.
 * `waitMs`: how long to wait for a holder to let go (a server waits for one that is stopping).
 */
export function holdServeLock(dataDir: string, waitMs = 0): Database {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, "serve.lock");
  ownerOnlyDatabase(path);
  const lock = new Database(path, { create: true });
  try {
    lock.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(waitMs))}`);
    lock.exec("PRAGMA locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
    return lock;
  } catch (error) {
    lock.close();
    if ((error as { code?: string })?.code !== "SQLITE_BUSY") throw error;
    throw new DataDirInUse(
      `another inlet serve is using the data dir ${dataDir}: stop it first, or give this one its own --data-dir (INLET_DATA_DIR); several servers share one store through PostgreSQL (--database-url)`,
    );
  }
}

/**
 * Whether an `inlet serve` holds the data dir now, asked by taking the lock for an instant. A dir
 * without `serve.lock` was never served by a server that takes it: nothing is created there.
 */
export function isServed(dataDir: string): boolean {
  if (!existsSync(join(dataDir, "serve.lock"))) return false;
  try {
    holdServeLock(dataDir).close();
    return false;
  } catch (error) {
    if (error instanceof DataDirInUse) return true;
    throw error;
  }
}
