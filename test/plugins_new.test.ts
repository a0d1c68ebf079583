import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "./support/process.ts";

// `inlet plugins new` in a directory someone else could have prepared: it never writes through a
// symbolic link or over a file; it exits 1 with one line saying which path and why.
const root = mkdtempSync(join(tmpdir(), "inlet-plugins-new-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("a dangling symbolic link where the plugin goes: exit 1 naming it, nothing written anywhere", async () => {
  const dir = join(root, "planted");
  const target = join(root, "target.ts");
  mkdirSync(dir);
  symlinkSync(target, join(dir, "acme.ts"));
  const { code, stdout, stderr } = await cli(["plugins", "new", "acme", "--dir", dir]);
  expect(code).toBe(1);
  expect(stderr).toBe(`inlet: ${join(dir, "acme.ts")} is a symbolic link: nothing written (inlet plugins new never writes through one; give the real path)\n`);
  expect(stdout).toBe("");
  expect(existsSync(target)).toBe(false);
  expect(existsSync(join(dir, "acme.test.ts"))).toBe(false);
});

test("--dir a symbolic link, or a file already there: exit 1, and the files stay as they were", async () => {
  const real = mkdtempSync(join(root, "real-"));
  symlinkSync(real, join(root, "linked"));
  const linked = await cli(["plugins", "new", "acme", "--dir", join(root, "linked")]);
  expect(linked.code).toBe(1);
  expect(linked.stderr).toStartWith(`inlet: ${join(root, "linked")} is a symbolic link`);
  expect(readdirSync(real)).toEqual([]);

  writeFileSync(join(real, "acme.test.ts"), "mine");
  const taken = await cli(["plugins", "new", "acme", "--dir", real]);
  expect(taken.code).toBe(1);
  expect(taken.stderr).toBe(`inlet: ${join(real, "acme.test.ts")} already exists: nothing written (move it away or choose another --dir)\n`);
  expect(readdirSync(real)).toEqual(["acme.test.ts"]);
  expect(readFileSync(join(real, "acme.test.ts"), "utf8")).toBe("mine");
});
