import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./support/process.ts";
import { withTempDir } from "./support/temp_dir.ts";

// Start-up failures: one line on stderr, naming what failed, where and what to do; never a credential.
test("a mistyped --database-url scheme never prints the password", async () => {
  const r = await cli(["serve", "--port", "0", "--database-url", "postgress://inlet:TOPSECRET@localhost:5432/x"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    'inlet: --database-url: must be a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE (got "postgress://inlet:***@localhost:5432/x")\n',
  );
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
  await withTempDir("inlet-test-datadir-", async (dir) => {
    const file = join(dir, "not-a-dir");
    writeFileSync(file, "x");
    const r = await cli(["serve", "--port", "0", "--data-dir", file]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`data dir ${file}`);
    expect(r.stderr).toContain("--data-dir");
  });
});

test("a bad INLET_SECRET_KEY or INLET_ADMIN_TOKEN: one line saying what it must be, never the value, nothing created", async () => {
  await withTempDir("inlet-test-env-", async (dir) => {
    const dataDir = join(dir, "data");
    const cases: Array<[Record<string, string>, string]> = [
      [{ INLET_SECRET_KEY: "NOT*base64*TOPSECRET" }, "INLET_SECRET_KEY must be base64 of exactly 32 bytes, but it is not base64"],
      [
        { INLET_SECRET_KEY: Buffer.from("TOPSECRET-16-byt").toString("base64") },
        "INLET_SECRET_KEY must be base64 of exactly 32 bytes, but it decodes to 16 bytes",
      ],
      [{ INLET_ADMIN_TOKEN: "TOPSECRET" }, "INLET_ADMIN_TOKEN: must be at least 16 characters (got 9 characters, not shown)"],
    ];
    for (const [env, reason] of cases) {
      for (const args of [
        ["serve", "--port", "0"],
        ["triggers", "list"],
      ]) {
        const r = await cli([...args, "--data-dir", dataDir], env);
        expect(r.code).not.toBe(0);
        expect(r.stdout).toBe("");
        expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining(reason)]);
        expect(r.stderr).not.toContain("TOPSECRET");
        expect(r.stderr).not.toContain(Object.values(env)[0]);
        expect(existsSync(dataDir)).toBe(false);
      }
    }
  });
});

test("a data dir holding something else than inlet's files: every command names the file and what to do", async () => {
  await withTempDir("inlet-test-datadir-", async (dir) => {
    const notDb = join(dir, "not-a-database");
    mkdirSync(notDb);
    writeFileSync(join(notDb, "inlet.db"), "these are somebody's notes, not SQLite\n".repeat(200));
    const keyDir = join(dir, "key-is-a-dir");
    mkdirSync(join(keyDir, "secret.key"), { recursive: true });
    const cases: Array<[string, string]> = [
      [notDb, `data dir ${notDb}: ${join(notDb, "inlet.db")} is not an inlet database`],
      [keyDir, `data dir ${keyDir}: its inlet.db or secret.key is a directory, not a file`],
    ];
    for (const [dataDir, reason] of cases) {
      for (const args of [
        ["serve", "--port", "0"],
        ["triggers", "list"],
        ["runs", "list"],
      ]) {
        const r = await cli([...args, "--data-dir", dataDir]);
        expect(r.code).not.toBe(0);
        expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining(reason)]);
      }
    }
  });
});
