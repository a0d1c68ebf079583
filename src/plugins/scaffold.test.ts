import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScaffoldRefused } from "./new_files.ts";
import { PluginRegistry } from "./registry.ts";
import { scaffoldPlugin } from "./scaffold.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-scaffold-"));
/** Where the refusals are staged: apart from `dir`, which is loaded as a plugins dir. */
const scratch = mkdtempSync(join(tmpdir(), "inlet-scaffold-refusals-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});
const [plugin, spec] = scaffoldPlugin(dir, "acme");

test("the scaffold's own test passes against inlet's real plugin context", () => {
  expect(readFileSync(spec, "utf8")).toContain(join(import.meta.dir, "index.ts"));
  // The plugin decodes nothing: its layout covers the raw bytes.
  expect(readFileSync(plugin, "utf8")).not.toContain("TextDecoder");
  const run = Bun.spawnSync([process.execPath, "test", spec], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
  const output = run.stderr.toString();
  expect({ exitCode: run.exitCode, output }).toMatchObject({ exitCode: 0 });
  expect(output).toContain("4 pass");
}, 30_000);

test("the scaffolded plugin loads from a plugins dir", async () => {
  const registry = new PluginRegistry();
  expect(await registry.loadDir(dir)).toEqual(["acme"]);
});

test("an existing file or a bad id is refused", () => {
  expect(() => scaffoldPlugin(dir, "acme")).toThrow(/already exists/);
  expect(() => scaffoldPlugin(dir, "Not An Id")).toThrow(/lower-case letters/);
});

/** The refusal `scaffoldPlugin` throws, or a failure of the test when it writes instead. */
function refusal(into: string, id: string): ScaffoldRefused {
  try {
    scaffoldPlugin(into, id);
  } catch (error) {
    if (error instanceof ScaffoldRefused) return error;
    throw error;
  }
  throw new Error(`scaffoldPlugin wrote into ${into}`);
}

test("never writes through a symbolic link, dangling or not, and writes nothing when one is in the way", () => {
  const place = mkdtempSync(join(scratch, "links-"));
  const elsewhere = mkdtempSync(join(scratch, "elsewhere-"));
  // A dangling link where the plugin goes: following it would create a file elsewhere.
  symlinkSync(join(elsewhere, "planted.ts"), join(place, "dangling.ts"));
  expect(refusal(place, "dangling")).toMatchObject({ code: "symlink", path: join(place, "dangling.ts") });
  // A link where the test goes, to a file of someone else's: not overwritten, and no plugin file either.
  writeFileSync(join(elsewhere, "victim"), "keep me");
  symlinkSync(join(elsewhere, "victim"), join(place, "linked.test.ts"));
  expect(refusal(place, "linked")).toMatchObject({ code: "symlink", path: join(place, "linked.test.ts") });
  expect(readFileSync(join(elsewhere, "victim"), "utf8")).toBe("keep me");
  expect(readdirSync(elsewhere)).toEqual(["victim"]);
  expect(readdirSync(place).sort()).toEqual(["dangling.ts", "linked.test.ts"]);
});

test("the directory itself may not be a symbolic link (to a directory or dangling) nor a file", () => {
  const real = mkdtempSync(join(scratch, "real-"));
  symlinkSync(real, join(scratch, "linked-dir"));
  expect(refusal(join(scratch, "linked-dir"), "acme")).toMatchObject({ code: "symlink", path: join(scratch, "linked-dir") });
  expect(readdirSync(real)).toEqual([]);
  symlinkSync(join(scratch, "nowhere"), join(scratch, "dangling-dir"));
  expect(refusal(join(scratch, "dangling-dir"), "acme")).toMatchObject({ code: "symlink" });
  expect(existsSync(join(scratch, "nowhere"))).toBe(false);
  writeFileSync(join(scratch, "a-file"), "");
  expect(refusal(join(scratch, "a-file"), "acme")).toMatchObject({ code: "not_a_directory" });
});

test("an existing file is refused before anything is written; a missing directory is created", () => {
  const half = join(scratch, "half", "deeper");
  mkdirSync(half, { recursive: true });
  writeFileSync(join(half, "acme.test.ts"), "mine");
  expect(refusal(half, "acme")).toMatchObject({ code: "exists", path: join(half, "acme.test.ts"), message: expect.stringContaining("nothing written") });
  expect(readdirSync(half)).toEqual(["acme.test.ts"]);
  expect(readFileSync(join(half, "acme.test.ts"), "utf8")).toBe("mine");
  expect(scaffoldPlugin(join(scratch, "new", "place"), "acme")).toHaveLength(2);
});
