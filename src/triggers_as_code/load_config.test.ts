import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatConfigError } from "./config_error.ts";
import { loadConfigFile } from "./load_config.ts";
import { context } from "./testdata/context.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-config-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "orders-secret-0123456789";

test("a file read, substituted (a relative ${file:…} from the file's folder) and validated", () => {
  mkdirSync(join(dir, "ops/secrets"), { recursive: true });
  writeFileSync(join(dir, "ops/secrets/github"), "github-app-secret\n");
  const path = join(dir, "ops/inlet.yaml");
  writeFileSync(
    path,
    'triggers:\n  - name: orders\n    auth:\n      type: bearer\n      secret: "${ORDERS_SECRET}"\n  - name: github\n    app: github\n    appSecret: "${file:secrets/github}"\nprune: true\n',
  );
  const result = loadConfigFile(path, context, { env: { ORDERS_SECRET: SECRET } });
  if (!result.ok) throw new Error(result.errors.map(formatConfigError).join("\n"));
  expect(result.value.substitutedPaths).toEqual(["/triggers/0/auth/secret", "/triggers/1/appSecret"]);
  expect(result.value.config.prune).toBe(true);
  expect(result.value.config.triggers.map((t) => [t.name, t.secret, t.appSecret])).toEqual([
    ["orders", SECRET, undefined],
    ["github", undefined, "github-app-secret"],
  ]);
});

test("every error of the file at once: placeholders that failed, and validation elsewhere; a file that cannot be read, alone", () => {
  const path = join(dir, "broken.json");
  writeFileSync(path, '{"triggers": [{"name": "a", "auth": {"type": "bearer", "secret": "${A}"}}, {"name": "b", "token": "${B}"}]}');
  const messages = (env: Record<string, string>) => {
    const result = loadConfigFile(path, context, { env });
    return result.ok ? [] : result.errors.map(formatConfigError);
  };
  expect(messages({})).toEqual(["a: /auth/secret: the environment variable A is not set", "b: /token: the environment variable B is not set"]);
  expect(messages({ A: "short", B: "also-short" })).toEqual([
    "a: /auth/secret: must be at least 16 characters (it has 5)",
    "b: /token: must be 32 to 128 characters of A–Z, a–z, 0–9, _ and - (it has 10)",
  ]);
  // An unset variable in one field, and mistakes in others: all of them, the failed field not checked again.
  const mixed = join(dir, "mixed.yaml");
  writeFileSync(
    mixed,
    'triggers:\n  - name: a\n    token: "${NOPE}"\n    dedup: { strategy: payload-hash, windowSeconds: 0 }\n  - name: b\n    auth: { type: bearer, secret: short }\n',
  );
  const all = loadConfigFile(mixed, context, { env: {} });
  expect(all.ok ? [] : all.errors.map(formatConfigError)).toEqual([
    "a: /token: the environment variable NOPE is not set",
    expect.stringMatching(/^a: \/dedup\/windowSeconds: /),
    "b: /auth/secret: must be at least 16 characters (it has 5)",
  ]);
  const missing = loadConfigFile(join(dir, "nowhere.yaml"), context);
  expect(missing.ok ? [] : missing.errors.map(formatConfigError)).toEqual([`${join(dir, "nowhere.yaml")}: cannot be read: no such file`]);
});
