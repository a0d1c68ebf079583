import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PluginRegistry } from "./registry.ts";
import { scaffoldPlugin } from "./scaffold.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-scaffold-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
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
