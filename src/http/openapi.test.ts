import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openApiDocument } from "./openapi.ts";

// The document as served, linted by two tools nobody here wrote: Redocly's recommended rules and
// Spectral's `spectral:oas`. Either reporting anything (warnings included) fails the test.
const dir = mkdtempSync(join(tmpdir(), "inlet-openapi-lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "openapi.json");
writeFileSync(file, JSON.stringify(openApiDocument("http://127.0.0.1:8080"), null, 2));
const bin = (name: string) => join(import.meta.dir, "..", "..", "node_modules", ".bin", name);

async function run(command: string[], cwd: string) {
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  const proc = Bun.spawn(command, { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, stdout, output: stdout + stderr };
}

test("Redocly (recommended rules) finds no error and no warning", async () => {
  const { code, stdout } = await run([bin("redocly"), "lint", "--format", "json", file], dir);
  const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
  expect({ code, totals: report.totals, problems: report.problems.map((p) => `${p.ruleId}: ${p.message}`) }).toEqual({
    code: 0,
    totals: expect.objectContaining({ errors: 0, warnings: 0 }),
    problems: [],
  });
}, 60_000);

test("Spectral (spectral:oas) finds no problem", async () => {
  writeFileSync(join(dir, ".spectral.yaml"), 'extends: ["spectral:oas"]\n');
  const { code, output } = await run([bin("spectral"), "lint", "--ruleset", join(dir, ".spectral.yaml"), "--fail-severity", "hint", file], dir);
  expect({ code, output: output.trim() }).toEqual({ code: 0, output: expect.stringMatching(/No results with a severity of 'hint' or higher found!/) });
}, 60_000);
