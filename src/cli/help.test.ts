import { expect, test } from "bun:test";
import { HELP, helpFor } from "./help.ts";

test("a command's help has its own usage lines and the flags every command takes", () => {
  const triggers = helpFor("triggers");
  expect(triggers).toContain("inlet triggers create --name NAME");
  expect(triggers).toContain("[--app ID] [--app-secret SECRET]");
  expect(triggers).not.toContain("inlet runs list");
  expect(triggers).toContain("--data-dir");
  expect(helpFor("serve").split("\n")[1]).toBe("  inlet serve [flags]                        start the server");
  expect(HELP).toContain("inlet plugins new ID");
  expect(helpFor("admin-token").split("\n")[1]).toStartWith("  inlet admin-token reset [flags]");
});

test("the help lists --metrics-token with its environment twin, INLET_METRICS_TOKEN", () => {
  expect(HELP).toMatch(/^  --metrics-token +INLET_METRICS_TOKEN +when set, \/metrics requires it as a bearer token/m);
});

test("the help says the server's own secrets can be given by file", () => {
  expect(HELP).toContain("INLET_ADMIN_TOKEN_FILE, INLET_SECRET_KEY_FILE, INLET_DATABASE_URL_FILE: a file whose content is the value");
});

test("the triggers help lists arm, for trust-on-first-use triggers", () => {
  expect(helpFor("triggers")).toContain("inlet triggers arm ID [flags]              for 15 minutes the provider's next handshake may set (or replace)");
});
