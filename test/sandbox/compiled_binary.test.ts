import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

test("the sandbox works in a compiled binary run alone from an empty folder", () => {
  const buildDir = mkdtempSync(join(tmpdir(), "inlet-sandbox-build-"));
  const runDir = mkdtempSync(join(tmpdir(), "inlet-sandbox-run-"));
  try {
    const entry = join(import.meta.dir, "compiled_entry.ts");
    const build = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", entry, "--outfile", join(buildDir, "entry")], {
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(build.stderr.toString()).not.toContain("error");
    expect(build.success).toBe(true);
    // Alone in an empty folder: no node_modules, no .wasm beside it.
    copyFileSync(join(buildDir, "entry"), join(runDir, "entry"));
    chmodSync(join(runDir, "entry"), 0o755);
    rmSync(buildDir, { recursive: true, force: true });
    const run = Bun.spawnSync([join(runDir, "entry")], { cwd: runDir, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual({
      filter: true,
      redacted: { user: { email: "[REDACTED]", password: "[REDACTED]", name: "n" } },
      timeout: "timeout",
    });
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
    rmSync(runDir, { recursive: true, force: true });
  }
}, 120_000);
