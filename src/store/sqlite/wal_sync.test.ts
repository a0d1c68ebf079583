import { expect, test } from "bun:test";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WalSync } from "./wal_sync.ts";

/** A flush the test finishes by hand. */
function manualFlushes() {
  const started: Array<{ finish(error?: Error): void }> = [];
  const flush = () =>
    new Promise<void>((resolve, reject) => {
      started.push({ finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { started, flush };
}

test("a caller is answered by a flush that began after its call; callers during a flush share the next one", async () => {
  const { started, flush } = manualFlushes();
  const sync = new WalSync(-1, flush);
  const answered: string[] = [];
  const a = sync.afterNow().then(() => answered.push("a"));
  expect(started).toHaveLength(1);
  // b and c committed while a's flush runs: it may not cover them.
  const b = sync.afterNow().then(() => answered.push("b"));
  const c = sync.afterNow().then(() => answered.push("c"));
  expect(started).toHaveLength(1);
  started[0].finish();
  await a;
  expect(answered).toEqual(["a"]);
  await Bun.sleep(0);
  expect(started).toHaveLength(2);
  expect(answered).toEqual(["a"]);
  started[1].finish();
  await Promise.all([b, c]);
  expect(answered).toEqual(["a", "b", "c"]);
  // Idle again: the next caller starts a flush at once.
  void sync.afterNow();
  expect(started).toHaveLength(3);
  started[2].finish();
});

test("a failed flush rejects its callers and every later one, without flushing again (a later success could cover a hole)", async () => {
  const { started, flush } = manualFlushes();
  const sync = new WalSync(-1, flush);
  const a = sync.afterNow();
  // Queued behind the failing flush: its own flush is never started.
  const b = sync.afterNow();
  const both = Promise.allSettled([a, b]);
  started[0].finish(new Error("EIO"));
  expect((await both).map((r) => (r.status === "rejected" ? (r.reason as Error).message : r.status))).toEqual(["EIO", "EIO"]);
  await expect(sync.afterNow()).rejects.toThrow("EIO");
  expect(started).toHaveLength(1);
  expect(sync.failure?.message).toBe("EIO");
  await sync.idle();
});

test("on a real file descriptor, fdatasync runs and resolves", async () => {
  const path = join(tmpdir(), `inlet-walsync-${process.pid}`);
  const fd = openSync(path, "w");
  try {
    writeSync(fd, "frames");
    await new WalSync(fd).afterNow();
    await expect(new WalSync(987654).afterNow()).rejects.toThrow();
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
});
