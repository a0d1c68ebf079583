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
  expect(startupLines(server, sqlite).stdout[0]).toBe("lost the token printed at the first start? 'inlet admin-token reset --data-dir ./inlet-data' prints a new one");
  expect(startupLines(server, { ...sqlite, databaseUrl: "postgres://u:secret@db/x" }).stdout[0]).toBe(
    "lost the token printed at the first start? 'inlet admin-token reset' with the same --database-url prints a new one",
  );
  // INLET_ADMIN_TOKEN: the user knows it; nothing to say.
  expect(startupLines({ ...server, adminTokenFrom: "env" }, sqlite).stdout).toEqual(["panel: http://127.0.0.1:8080/", "inlet listening on http://127.0.0.1:8080"]);
  for (const from of ["store", "env"] as const) expect(startupLines({ ...server, adminTokenFrom: from }, sqlite).stdout.join("\n")).not.toMatch(/admin token[^:\n]*:/);
});

test("the panel is at the base URL that trigger URLs use", () => {
  expect(startupLines({ ...server, baseUrl: "https://hooks.example.com" }, sqlite).stdout).toContain("panel: https://hooks.example.com/");
});
