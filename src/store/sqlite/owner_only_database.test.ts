import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { holdServeLock } from "./serve_lock.ts";
import { SqliteStore, sqlitePathIn } from "./sqlite_store.ts";

const parent = mkdtempSync(join(tmpdir(), "inlet-test-owner-only-db-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A data dir made the way `mkdir -m 755 data` makes it. */
function openDir(name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  return dir;
}

const modes = (dir: string) => Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]));

test("a new database in an open data dir, and the WAL and shared memory SQLite makes beside it, are 0600", async () => {
  const dir = openDir("new");
  const store = new SqliteStore(sqlitePathIn(dir));
  try {
    await store.setMeta("written", "yes");
    expect(modes(dir)).toEqual({ "inlet.db": "600", "inlet.db-wal": "600", "inlet.db-shm": "600" });
  } finally {
    await store.close();
  }
});

test("a database an older inlet left 0644, with its WAL and shared memory still there, is tightened when opened", async () => {
  const dir = openDir("older");
  const path = sqlitePathIn(dir);
  // Written the way SQLite does by itself (0644 under the usual umask 022), and left open: its
  // -wal and -shm stay, as after a crash.
  const older = new Database(path, { create: true });
  older.exec("PRAGMA journal_mode = WAL");
  older.exec("CREATE TABLE notes (x)");
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
  expect(Object.keys(modes(dir)).sort()).toEqual(["inlet.db", "inlet.db-shm", "inlet.db-wal"]);
  const store = new SqliteStore(path);
  try {
    await store.setMeta("written", "yes");
    expect(modes(dir)).toEqual({ "inlet.db": "600", "inlet.db-wal": "600", "inlet.db-shm": "600" });
  } finally {
    await store.close();
    older.close();
  }
});

test("the serve lock file is 0600, made new or left 0644 by an older inlet", () => {
  const dir = openDir("lock");
  holdServeLock(dir).close();
  expect(modes(dir)).toEqual({ "serve.lock": "600" });
  chmodSync(join(dir, "serve.lock"), 0o644);
  const lock = holdServeLock(dir);
  try {
    // While held, SQLite keeps a rollback journal beside it too.
    const held = modes(dir);
    expect(held["serve.lock"]).toBe("600");
    for (const [name, mode] of Object.entries(held)) expect({ name, mode }).toEqual({ name, mode: "600" });
  } finally {
    lock.close();
  }
});
