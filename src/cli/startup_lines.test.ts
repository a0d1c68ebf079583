import { expect, test } from "bun:test";
import { startupLines } from "./startup_lines.ts";

const server = { url: "http://127.0.0.1:8080", baseUrl: "http://127.0.0.1:8080", adminToken: null, adminTokenFrom: "store" as const, warnings: ["note: x"] };
const sqlite = { dataDir: "./inlet-data" };

test("a generated admin token is printed once, before the panel and the listening line (last, for scripts)", () => {
  const lines = startupLines({ ...server, adminToken: "inlet_abc", adminTokenFrom: "generated" }, sqlite);
  expect(lines.stdout).toEqual([
    "admin token (shown once; keep it, only its hash is stored): inlet_abc",
    "panel: http://127.0.0.1:8080/",
    "inlet listening on http://127.0.0.1:8080",
  ]);
  expect(lines.stderr).toEqual(["note: x"]);
});

test("a stored admin token says how to get a new one, for the data dir or the database in use, without looking like a token line", () => {
  expect(startupLines(server, sqlite).stdout[0]).toBe(
    "lost the token printed at the first start? 'inlet admin-token reset --data-dir ./inlet-data' prints a new one",
  );
  expect(startupLines(server, { ...sqlite, databaseUrl: "postgres://u:secret@db/x" }).stdout[0]).toBe(
    "lost the token printed at the first start? 'inlet admin-token reset' with the same --database-url prints a new one",
  );
  // INLET_ADMIN_TOKEN: the user knows it; nothing to say.
  expect(startupLines({ ...server, adminTokenFrom: "env" }, sqlite).stdout).toEqual([
    "panel: http://127.0.0.1:8080/",
    "inlet listening on http://127.0.0.1:8080",
  ]);
  for (const from of ["store", "env"] as const)
    expect(startupLines({ ...server, adminTokenFrom: from }, sqlite).stdout.join("\n")).not.toMatch(/admin token[^:\n]*:/);
});

test("the panel is at the base URL that trigger URLs use", () => {
  expect(startupLines({ ...server, baseUrl: "https://hooks.example.com" }, sqlite).stdout).toContain("panel: https://hooks.example.com/");
});

test("an admin token shorter than 32 characters gets a warning on stderr, naming where it came from and never showing it", () => {
  const short = startupLines({ ...server, adminTokenFrom: "env" }, { ...sqlite, adminToken: "0123456789abcdefghijklmnopqrstu" }).stderr;
  expect(short).toEqual(["note: x", expect.stringMatching(/^warning: the admin token \(INLET_ADMIN_TOKEN\) is 31 characters; use at least 32/)]);
  expect(short.join("\n")).not.toContain("0123456789abcdef");
  const fromFile = startupLines(
    server,
    { ...sqlite, adminToken: "0123456789abcdef" },
    { env: { INLET_ADMIN_TOKEN_FILE: "/run/secrets/token" }, pid: 42 },
  ).stderr;
  expect(fromFile[1]).toStartWith("warning: the admin token (INLET_ADMIN_TOKEN_FILE) is 16 characters");
  expect(startupLines(server, { ...sqlite, adminToken: "0123456789abcdefghijklmnopqrstuv" }).stderr).toEqual(["note: x"]);
  expect(startupLines({ ...server, adminToken: "inlet_abc", adminTokenFrom: "generated" }, sqlite).stderr).toEqual(["note: x"]);
});

test("secrets given through the environment: one note that command workflows can read them from /proc/<pid>/environ, and that *_FILE avoids it", () => {
  const env = { INLET_ADMIN_TOKEN: "0123456789abcdefghijklmnopqrstuvwxyz", INLET_SECRET_KEY_FILE: "/run/key", INLET_DATABASE_URL: "postgres://u:p@db/x" };
  const lines = startupLines(server, { ...sqlite, adminToken: env.INLET_ADMIN_TOKEN }, { env, pid: 4242 }).stderr;
  expect(lines).toEqual([
    "note: x",
    "note: INLET_ADMIN_TOKEN, INLET_DATABASE_URL are in the server's environment, which command workflows can read from /proc/4242/environ; set INLET_ADMIN_TOKEN_FILE, INLET_DATABASE_URL_FILE to files holding the values instead",
  ]);
  expect(lines.join("\n")).not.toContain(env.INLET_ADMIN_TOKEN);
  expect(startupLines(server, sqlite, { env: { INLET_SECRET_KEY: "k" }, pid: 7 }).stderr[1]).toBe(
    "note: INLET_SECRET_KEY is in the server's environment, which command workflows can read from /proc/7/environ; set INLET_SECRET_KEY_FILE to a file holding the value instead",
  );
  expect(startupLines(server, sqlite, { env: { INLET_ADMIN_TOKEN_FILE: "/run/token", INLET_PORT: "1" }, pid: 7 }).stderr).toEqual(["note: x"]);
});
