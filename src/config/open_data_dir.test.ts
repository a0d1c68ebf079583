import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { dataDirWarning, openDataDirWarning } from "./open_data_dir.ts";

test("a data dir group or others may read or write gets one line naming the dir, its mode and the chmod that fixes it", () => {
  expect(openDataDirWarning("/srv/inlet", 0o40755)).toBe(
    "warning: data dir /srv/inlet has mode 0755: group or others may list or change what is in it; make it private with: chmod 700 /srv/inlet",
  );
  // Relative as given, absolute in the line: the command works from any directory.
  expect(openDataDirWarning("inlet-data", 0o40770)).toContain(`data dir ${resolve("inlet-data")} has mode 0770:`);
  for (const mode of [0o704, 0o702, 0o740, 0o720, 0o777]) expect(openDataDirWarning("/d", mode)).not.toBeNull();
});

test("a private data dir, or one only others may enter without listing it, gets no warning", () => {
  for (const mode of [0o700, 0o500, 0o711, 0o40700]) expect(openDataDirWarning("/d", mode)).toBeNull();
});

test("the chmod command quotes a path a shell would split", () => {
  expect(openDataDirWarning("/srv/my inlet's data", 0o755)).toEndWith(`chmod 700 '/srv/my inlet'\\''s data'`);
});

test("the warning reads the data dir's mode on disk; a dir not there yet gets none", () => {
  const parent = mkdtempSync(join(tmpdir(), "inlet-test-open-dir-"));
  try {
    const dir = join(parent, "data");
    expect(dataDirWarning(dir)).toBeNull();
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(dataDirWarning(dir)).toContain("has mode 0755");
    chmodSync(dir, 0o700);
    expect(dataDirWarning(dir)).toBeNull();
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
