import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../../test/support/wait.ts";
import { watchFile, type FileWatchOptions } from "./watch_file.ts";

const root = mkdtempSync(join(tmpdir(), "inlet-watch-file-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A watched file in a fresh folder, and what was delivered so far. */
function watched(initial: string | undefined, options: FileWatchOptions = {}) {
  const folder = mkdtempSync(join(root, `f${n++}-`));
  const path = join(folder, "inlet.yaml");
  if (initial !== undefined) writeFileSync(path, initial);
  const delivered: Array<string | null> = [];
  const watching = watchFile(path, (text) => void delivered.push(text), {
    debounceMs: 50,
    pollMs: 60_000,
    ...options,
    ...(initial === undefined ? {} : { initial }),
  });
  const next = (count: number) => waitFor(`delivery ${count}`, () => delivered.length >= count && delivered, 5000);
  return { folder, path, delivered, watching, next };
}

test("a change written in place is delivered; the same text written again is not", async () => {
  const { path, delivered, watching, next } = watched("triggers: []\n");
  writeFileSync(path, "triggers: [{ name: a }]\n");
  await next(1);
  writeFileSync(path, "triggers: [{ name: a }]\n");
  await watching.check();
  writeFileSync(path, "triggers: [{ name: b }]\n");
  await next(2);
  await watching.stop();
  expect(delivered).toEqual(["triggers: [{ name: a }]\n", "triggers: [{ name: b }]\n"]);
});

test("a file replaced by a rename (an editor, git) is delivered, and so is the next change to the new file", async () => {
  const { folder, path, delivered, watching, next } = watched("one\n");
  writeFileSync(join(folder, ".inlet.yaml.tmp"), "two\n");
  renameSync(join(folder, ".inlet.yaml.tmp"), path);
  await next(1);
  writeFileSync(path, "three\n");
  await next(2);
  await watching.stop();
  expect(delivered).toEqual(["two\n", "three\n"]);
});

test("a deleted file is delivered once as null; when it appears again its text is delivered, even the same text", async () => {
  const { path, delivered, watching, next } = watched("kept\n");
  rmSync(path);
  await next(1);
  await watching.check();
  writeFileSync(path, "kept\n");
  await next(2);
  await watching.stop();
  expect(delivered).toEqual([null, "kept\n"]);
});

test("without an initial text the first read is delivered; a file not there yet is null, then its text", async () => {
  const { path, delivered, watching, next } = watched(undefined);
  await next(1);
  writeFileSync(path, "late\n");
  await next(2);
  await watching.stop();
  expect(delivered).toEqual([null, "late\n"]);
});

test("a change the folder's watch did not report is found by the poll", async () => {
  // No debounce event will come for a folder that did not exist when the watch began.
  const folder = join(root, `later-${n++}`);
  const path = join(folder, "inlet.yaml");
  const delivered: Array<string | null> = [];
  const watching = watchFile(path, (text) => void delivered.push(text), { debounceMs: 20, pollMs: 50 });
  await waitFor("gone", () => delivered.length === 1);
  Bun.spawnSync(["mkdir", "-p", folder]);
  writeFileSync(path, "found\n");
  await waitFor("found", () => delivered.length === 2);
  await watching.stop();
  expect(delivered).toEqual([null, "found\n"]);
});

test("after stop nothing more is delivered", async () => {
  const { path, delivered, watching } = watched("a\n");
  await watching.stop();
  writeFileSync(path, "b\n");
  await watching.check();
  expect(delivered).toEqual([]);
});

test("a delivery that failed is tried again at the next poll, with the same text", async () => {
  const folder = mkdtempSync(join(root, `retry-${n++}-`));
  const path = join(folder, "inlet.yaml");
  writeFileSync(path, "old\n");
  const attempts: Array<string | null> = [];
  const errors: unknown[] = [];
  const watching = watchFile(
    path,
    (text) => {
      attempts.push(text);
      if (attempts.length === 1) throw new Error("the store is unavailable");
    },
    { initial: "old\n", debounceMs: 20, pollMs: 50, onError: (error) => errors.push(error) },
  );
  writeFileSync(path, "new\n");
  await waitFor("retried", () => attempts.length === 2);
  await watching.stop();
  expect(attempts).toEqual(["new\n", "new\n"]);
  expect(errors.map(String)).toEqual(["Error: the store is unavailable"]);
});
