import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataDirInUse, holdServeLock, isServed } from "./serve_lock.ts";
import { SqliteStore, sqlitePathIn } from "./sqlite_store.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-serve-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the serve lock: a second taker is refused until the first lets go; the store beside it still reads and writes", async () => {
  const dataDir = join(dir, "served", "nested");
  const first = holdServeLock(dataDir);
  const refused = (() => {
    try {
      holdServeLock(dataDir).close();
      return null;
    } catch (error) {
      return error as Error;
    }
  })();
  expect(refused).toBeInstanceOf(DataDirInUse);
  expect(refused!.message).toContain(`another inlet serve is using the data dir ${dataDir}`);
  // Commands on the same data dir (not serving) still read and write.
  const store = new SqliteStore(sqlitePathIn(dataDir));
  await store.setMeta("k", "v");
  await store.close();
  first.close();
  holdServeLock(dataDir).close();
});

test("isServed: false for a data dir without serve.lock (and nothing is created there), true while the lock is held, false once it is let go", () => {
  const dataDir = join(dir, "asked");
  mkdirSync(dataDir);
  expect(isServed(dataDir)).toBe(false);
  expect(readdirSync(dataDir)).toEqual([]);
  expect(isServed(join(dir, "absent"))).toBe(false);
  expect(existsSync(join(dir, "absent"))).toBe(false);

  const lock = holdServeLock(dataDir);
  expect(isServed(dataDir)).toBe(true);
  lock.close();
  expect(isServed(dataDir)).toBe(false);
});
