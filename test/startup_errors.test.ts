import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "./support/process.ts";

// Start-up failures: one line on stderr, naming what failed, where and what to do; never a credential.
test("a mistyped --database-url scheme never prints the password", async () => {
  const r = await cli(["serve", "--port", "0", "--database-url", "postgress://inlet:TOPSECRET@localhost:5432/x"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('inlet: --database-url: must be a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE (got "postgress://inlet:***@localhost:5432/x")\n');
  const env = await cli(["serve", "--port", "0"], { INLET_DATABASE_URL: "inlet:TOPSECRET@localhost" });
  expect(env.stderr).not.toContain("TOPSECRET");
});

test("an unreachable PostgreSQL names the host and port and says what to check", async () => {
  const r = await cli(["serve", "--port", "0", "--database-url", "postgres://inlet:TOPSECRET@127.0.0.1:1/x"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain("could not connect to 127.0.0.1:1");
  expect(r.stderr).toContain("check that PostgreSQL is running");
  expect(r.stderr).not.toContain("TOPSECRET");
});

test("a data dir that cannot be used names its absolute path and the fix", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-test-datadir-"));
  try {
    const file = join(dir, "not-a-dir");
    writeFileSync(file, "x");
    const r = await cli(["serve", "--port", "0", "--data-dir", file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`data dir ${file}`);
    expect(r.stderr).toContain("--data-dir");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
