import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { thrown } from "../../test/support/values.ts";
import { withTempDir } from "../../test/support/temp_dir.ts";
import { readSecretFiles, SecretFileUnreadable, secretsInEnvironment } from "./secret_files.ts";
import { UsageError } from "./usage_error.ts";

test("X_FILE names a file whose content, one trailing newline removed, is the value of X", async () => {
  await withTempDir("inlet-test-secret-files-", async (dir) => {
    writeFileSync(join(dir, "token"), "admin-token-from-a-file-0123456789\n");
    writeFileSync(join(dir, "key"), "a-key-without-newline");
    writeFileSync(join(dir, "url"), "postgres://u:p@db/inlet\r\n\n");
    const env = readSecretFiles({
      INLET_ADMIN_TOKEN_FILE: join(dir, "token"),
      INLET_SECRET_KEY_FILE: join(dir, "key"),
      INLET_DATABASE_URL_FILE: join(dir, "url"),
      INLET_PORT: "9000",
    });
    expect(env).toMatchObject({
      INLET_ADMIN_TOKEN: "admin-token-from-a-file-0123456789",
      INLET_SECRET_KEY: "a-key-without-newline",
      INLET_DATABASE_URL: "postgres://u:p@db/inlet\r\n",
      INLET_PORT: "9000",
    });
  });
});

test("without X_FILE the environment is as given; an empty X_FILE is as unset", () => {
  expect(readSecretFiles({ INLET_ADMIN_TOKEN: "t", INLET_SECRET_KEY_FILE: "" })).toEqual({ INLET_ADMIN_TOKEN: "t", INLET_SECRET_KEY_FILE: "" });
});

test("X and X_FILE both set is a usage error naming both", async () => {
  await withTempDir("inlet-test-secret-files-", async (dir) => {
    writeFileSync(join(dir, "key"), "k");
    const error = thrown(() => readSecretFiles({ INLET_SECRET_KEY: "k", INLET_SECRET_KEY_FILE: join(dir, "key") }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain("INLET_SECRET_KEY and INLET_SECRET_KEY_FILE are both set");
  });
});

test("a file that cannot be read, or is empty, is an error naming the variable and the path", async () => {
  await withTempDir("inlet-test-secret-files-", async (dir) => {
    const missing = join(dir, "missing");
    const error = thrown(() => readSecretFiles({ INLET_ADMIN_TOKEN_FILE: missing }));
    expect(error).toBeInstanceOf(SecretFileUnreadable);
    expect((error as Error).message).toBe(`INLET_ADMIN_TOKEN_FILE: cannot read ${missing} (no such file)`);
    mkdirSync(join(dir, "a-dir"));
    expect((thrown(() => readSecretFiles({ INLET_DATABASE_URL_FILE: join(dir, "a-dir") })) as Error).message).toBe(
      `INLET_DATABASE_URL_FILE: cannot read ${join(dir, "a-dir")} (it is a directory)`,
    );
    if (process.getuid?.() !== 0) {
      writeFileSync(join(dir, "locked"), "secret");
      chmodSync(join(dir, "locked"), 0o000);
      expect((thrown(() => readSecretFiles({ INLET_SECRET_KEY_FILE: join(dir, "locked") })) as Error).message).toBe(
        `INLET_SECRET_KEY_FILE: cannot read ${join(dir, "locked")} (permission denied)`,
      );
    }
    writeFileSync(join(dir, "empty"), "\n");
    const empty = thrown(() => readSecretFiles({ INLET_ADMIN_TOKEN_FILE: join(dir, "empty") }));
    expect(empty).toBeInstanceOf(UsageError);
    expect((empty as Error).message).toBe(`INLET_ADMIN_TOKEN_FILE: ${join(dir, "empty")} is empty (it should hold the value of INLET_ADMIN_TOKEN)`);
  });
});

test("the secrets held in the environment: the plain variables that are set, not their _FILE twins", () => {
  expect(secretsInEnvironment({ INLET_ADMIN_TOKEN: "t", INLET_SECRET_KEY_FILE: "/run/key", INLET_DATABASE_URL: "", INLET_PORT: "1" })).toEqual([
    "INLET_ADMIN_TOKEN",
  ]);
  expect(secretsInEnvironment({ INLET_ADMIN_TOKEN: "t", INLET_SECRET_KEY: "k", INLET_DATABASE_URL: "postgres://x" })).toEqual([
    "INLET_ADMIN_TOKEN",
    "INLET_SECRET_KEY",
    "INLET_DATABASE_URL",
  ]);
});
