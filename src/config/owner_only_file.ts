import { chmodSync, closeSync, fchmodSync, openSync, statSync } from "node:fs";

/**
 * Read and write for the owner only: the data dir's files hold payloads, the admin token's hash
 * and the key that opens sealed secrets (README "Files and caching").
 */
export const OWNER_ONLY = 0o600;

/**
 * Makes `path` an owner-only file: created empty with mode 0600 when absent (set explicitly, so
 * whatever the umask), else tightened as {@link tightenToOwner} does. Called before SQLite opens
 * a database file: SQLite gives the `-wal`, `-shm` and `-journal` files it creates beside it the
 * database file's mode, so they are owner-only too. An empty file is an empty database to SQLite.
 *
 * @example
 * ownerOnlyFile("inlet-data/inlet.db") // inlet-data/inlet.db exists, mode 0600
 */
export function ownerOnlyFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, "wx", OWNER_ONLY);
  } catch (error) {
    if ((error as { code?: string })?.code !== "EEXIST") throw error;
    tightenToOwner(path);
    return;
  }
  try {
    fchmodSync(fd, OWNER_ONLY);
  } finally {
    closeSync(fd);
  }
}

/**
 * Narrows `path` to mode 0600 when it is a regular file of this user that group or others may use
 * (a data dir written by an older inlet, whose files were 0644). Nothing happens to a path that
 * does not exist, to a directory (SQLite then says what is wrong with it), or to another user's
 * file, which this process may not change.
 *
 * @example
 * tightenToOwner("inlet-data/inlet.db-wal") // 0644 → 0600; 0600 and 0400 stay as they are
 */
export function tightenToOwner(path: string): void {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (error) {
    if ((error as { code?: string })?.code === "ENOENT") return;
    throw error;
  }
  if (!stat.isFile() || (stat.mode & 0o077) === 0) return;
  if (process.getuid !== undefined && stat.uid !== process.getuid()) return;
  chmodSync(path, OWNER_ONLY);
}
