import { expect, test } from "bun:test";
import { thrown } from "../../test/support/values.ts";
import { isGiven, loadServerConfig } from "./load_server_config.ts";
import { publicBaseUrl } from "./base_url.ts";
import { UsageError } from "./usage_error.ts";

test('defaults of README "Commands and flags"', () => {
  const c = loadServerConfig([], {});
  expect(c).toMatchObject({ host: "127.0.0.1", port: 8080, dataDir: "./inlet-data", maxBodyBytes: 1048576, rateLimit: 0, retentionDays: 30, alertInterval: 5 });
  expect(c.baseUrl).toBeUndefined();
  expect(publicBaseUrl(c, 8080)).toBe("http://127.0.0.1:8080");
});

const KEY = Buffer.alloc(32, 7).toString("base64");

test("every flag has an env twin, and flags win over the environment", () => {
  const env = {
    INLET_HOST: "0.0.0.0",
    INLET_PORT: "9000",
    INLET_DATA_DIR: "/var/lib/inlet",
    INLET_BASE_URL: "https://hooks.example.com/",
    INLET_PLUGINS_DIR: "/etc/inlet/plugins",
    INLET_DATABASE_URL: "postgres://u:p@db/inlet",
    INLET_ADMIN_TOKEN: "admin-token-0123456789",
    INLET_SECRET_KEY: KEY,
    INLET_TRUSTED_PROXIES: "10.0.0.0/8,127.0.0.1",
  };
  const fromEnv = loadServerConfig([], env);
  expect(fromEnv).toMatchObject({
    host: "0.0.0.0",
    port: 9000,
    dataDir: "/var/lib/inlet",
    baseUrl: "https://hooks.example.com",
    pluginsDir: "/etc/inlet/plugins",
    databaseUrl: "postgres://u:p@db/inlet",
    adminToken: "admin-token-0123456789",
    secretKey: KEY,
    trustedProxies: "10.0.0.0/8,127.0.0.1",
  });
  const flags = loadServerConfig(["--port", "0", "--host=::1", "--data-dir", "./d", "--base-url", "http://x:1"], env);
  expect(flags).toMatchObject({ port: 0, host: "::1", dataDir: "./d", baseUrl: "http://x:1" });
  expect(publicBaseUrl({ host: "::1" }, 5)).toBe("http://[::1]:5");
});

test("bad values are one clear error naming the flag or variable", () => {
  expect(() => loadServerConfig(["--port", "http"], {})).toThrow(new UsageError('--port must be a whole number, got "http"'));
  expect(() => loadServerConfig([], { INLET_PORT: "70000" })).toThrow(/--port/);
  expect(() => loadServerConfig(["--database-url", "mysql://x"], {})).toThrow(/--database-url/);
  expect(() => loadServerConfig(["--nope"], {})).toThrow("unknown flag --nope");
  expect(() => loadServerConfig(["--data-dir"], {})).toThrow("--data-dir needs a value");
  expect(() => loadServerConfig(["--data-dir", "--port", "9000"], {})).toThrow("--data-dir needs a value (the next word, --port, is a flag");
  expect(() => loadServerConfig(["--log-requests", "maybe"], {})).toThrow(/true or false/);
});

test("a boolean flag takes the next word when it says true or false, in any of its spellings; else it stands for true", () => {
  for (const word of ["false", "0", "no", "off", "OFF"]) expect(loadServerConfig(["--log-requests", word], {}).logRequests).toBe(false);
  for (const word of ["true", "1", "yes", "on"]) expect(loadServerConfig(["--log-requests", word], {}).logRequests).toBe(true);
  expect(loadServerConfig(["--log-requests"], {}).logRequests).toBe(true);
  expect(loadServerConfig(["--log-requests", "--port", "9000"], {})).toMatchObject({ logRequests: true, port: 9000 });
  expect(() => loadServerConfig(["--log-requests", "maybe"], {})).toThrow(new UsageError('--log-requests must be true or false, got "maybe"'));
  expect(() => loadServerConfig(["--port", "9000", "stray"], {})).toThrow(new UsageError("unexpected argument stray (see 'inlet help')"));
});

test("isGiven: a setting from a flag or its environment twin, not one left to its default", () => {
  const defaults = loadServerConfig([], {});
  expect(isGiven(defaults, "port")).toBe(false);
  expect(isGiven(loadServerConfig(["--port", "8080"], {}), "port")).toBe(true);
  expect(isGiven(loadServerConfig([], { INLET_HOST: "127.0.0.1" }), "host")).toBe(true);
  expect(isGiven(loadServerConfig([], { INLET_HOST: "" }), "host")).toBe(false);
});

test("INLET_SECRET_KEY: base64 of 32 bytes in either alphabet, padded or not, kept in the key file's spelling; anything else named, never shown", () => {
  for (const given of [KEY, KEY.replace(/=$/, ""), ` ${Buffer.alloc(32, 7).toString("base64url")}\n`])
    expect(loadServerConfig([], { INLET_SECRET_KEY: given }).secretKey).toBe(KEY);
  const refused = (INLET_SECRET_KEY: string) => (thrown(() => loadServerConfig([], { INLET_SECRET_KEY })) as Error).message;
  expect(refused("pa$$word-pa$$word")).toStartWith("INLET_SECRET_KEY must be base64 of exactly 32 bytes, but it is not base64");
  expect(refused(Buffer.alloc(16).toString("base64"))).toStartWith("INLET_SECRET_KEY must be base64 of exactly 32 bytes, but it decodes to 16 bytes");
  expect(refused("A")).toContain("is not base64");
  expect(refused(KEY + "+_")).toContain("is not base64");
  expect(refused("pa$$word-pa$$word")).not.toContain("pa$$word");
});

test("--metrics-token / INLET_METRICS_TOKEN: unset by default, flag over env, at least 16 characters like the admin token, never shown when refused", () => {
  expect(loadServerConfig([], {}).metricsToken).toBeUndefined();
  expect(loadServerConfig([], { INLET_METRICS_TOKEN: "metrics-token-from-env" }).metricsToken).toBe("metrics-token-from-env");
  expect(loadServerConfig(["--metrics-token", "metrics-token-from-flag"], { INLET_METRICS_TOKEN: "metrics-token-from-env" }).metricsToken).toBe(
    "metrics-token-from-flag",
  );
  expect(loadServerConfig(["--metrics-token=metrics-token-from-flag"], {}).metricsToken).toBe("metrics-token-from-flag");
  const refused = (args: string[], env: Record<string, string>) => (thrown(() => loadServerConfig(args, env)) as Error).message;
  expect(refused(["--metrics-token", "short-secret"], {})).toBe("--metrics-token: must be at least 16 characters (got 12 characters, not shown)");
  expect(refused([], { INLET_METRICS_TOKEN: "short-secret" })).not.toContain("short-secret");
  expect(() => loadServerConfig(["--metrics-token"], {})).toThrow("--metrics-token needs a value");
});

test("the admin token, secret key and database URL can be given by file (INLET_*_FILE), checked as if given directly", async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "inlet-test-config-files-"));
  try {
    const file = (name: string, content: string) => (writeFileSync(join(dir, name), content), join(dir, name));
    const config = loadServerConfig([], {
      INLET_ADMIN_TOKEN_FILE: file("token", "admin-token-0123456789\n"),
      INLET_SECRET_KEY_FILE: file("key", `${KEY}\n`),
      INLET_DATABASE_URL_FILE: file("url", "postgres://u:p@db/inlet\n"),
    });
    expect(config).toMatchObject({ adminToken: "admin-token-0123456789", secretKey: KEY, databaseUrl: "postgres://u:p@db/inlet" });
    expect(isGiven(config, "adminToken")).toBe(true);
    expect((thrown(() => loadServerConfig([], { INLET_ADMIN_TOKEN_FILE: file("short", "short\n") })) as Error).message).toBe(
      "INLET_ADMIN_TOKEN: must be at least 16 characters (got 5 characters, not shown)",
    );
    const both = thrown(() => loadServerConfig([], { INLET_DATABASE_URL: "postgres://x/y", INLET_DATABASE_URL_FILE: join(dir, "url") }));
    expect(both).toBeInstanceOf(UsageError);
    expect((both as Error).message).toContain("INLET_DATABASE_URL and INLET_DATABASE_URL_FILE are both set");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
