import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScaffoldRefused, writeNewFiles } from "./new_files.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-new-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("all or none: a file refused at its exclusive creation takes back the ones written before it", () => {
  // The same path twice: the first creation succeeds, the second meets it (as it would meet a file planted meanwhile).
  const twice = join(dir, "twice.ts");
  let refused: unknown;
  try {
    writeNewFiles(dir, [
      { path: join(dir, "first.ts"), content: "1" },
      { path: twice, content: "2" },
      { path: twice, content: "3" },
    ]);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(ScaffoldRefused);
  expect(refused).toMatchObject({ code: "exists", path: twice });
  expect(readdirSync(dir)).toEqual([]);
});
