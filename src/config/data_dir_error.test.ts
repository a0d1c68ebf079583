import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { DataDirUnusable, explainDataDirError } from "./data_dir_error.ts";

const explained = (error: unknown) => explainDataDirError(error, "./inlet-data") as Error;

test("file-system failures name the absolute path and the fix", () => {
  const denied = explained(Object.assign(new Error("EACCES: permission denied, mkdir './inlet-data'"), { code: "EACCES", path: "./inlet-data" }));
  expect(denied).toBeInstanceOf(DataDirUnusable);
  expect(denied.message).toBe(
    `data dir ${resolve("inlet-data")}: permission denied on ${resolve("inlet-data")}: choose a writable --data-dir (INLET_DATA_DIR), or give the user running inlet write access to ${resolve("inlet-data")}`,
  );
  expect(explained(Object.assign(new Error("x"), { code: "EROFS" })).message).toContain("read-only file system");
  expect(explained(Object.assign(new Error("x"), { code: "ENOSPC" })).message).toContain("no space left");
});

test("a read-only SQLite file names the database file", () => {
  expect(explained(new Error("attempt to write a readonly database")).message).toContain(`the database ${resolve("inlet-data", "inlet.db")} cannot be written`);
});

test("other errors pass through unchanged", () => {
  const other = new Error("something else");
  expect(explainDataDirError(other, "d")).toBe(other);
});
