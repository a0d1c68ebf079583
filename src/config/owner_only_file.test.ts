import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ownerOnlyFile, tightenToOwner } from "./owner_only_file.ts";

let dir: string;
const modeOf = (path: string) => statSync(path).mode & 0o777;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "inlet-test-owner-only-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

test("a file made owner-only is created empty with mode 0600, whatever the umask", () => {
  const before = process.umask(0o277);
  try {
    ownerOnlyFile(join(dir, "strict"));
  } finally {
    process.umask(before);
  }
  const loose = process.umask(0o000);
  try {
    ownerOnlyFile(join(dir, "loose"));
  } finally {
    process.umask(loose);
  }
  for (const name of ["strict", "loose"]) {
    expect({ name, mode: modeOf(join(dir, name)) }).toEqual({ name, mode: 0o600 });
    expect(readFileSync(join(dir, name), "utf8")).toBe("");
  }
});

test("an existing file open to group or others is narrowed to 0600, its content kept", () => {
  const path = join(dir, "inlet.db");
  writeFileSync(path, "kept");
  chmodSync(path, 0o644);
  ownerOnlyFile(path);
  expect(modeOf(path)).toBe(0o600);
  expect(readFileSync(path, "utf8")).toBe("kept");
});

test("tightening leaves alone what is already private, a directory, and a path that is not there", () => {
  const readOnly = join(dir, "read-only");
  writeFileSync(readOnly, "x");
  chmodSync(readOnly, 0o400);
  tightenToOwner(readOnly);
  expect(modeOf(readOnly)).toBe(0o400);
  const sub = join(dir, "sub");
  mkdirSync(sub);
  chmodSync(sub, 0o755);
  tightenToOwner(sub);
  expect(modeOf(sub)).toBe(0o755);
  tightenToOwner(join(dir, "absent"));
  expect(existsSync(join(dir, "absent"))).toBe(false);
});
