import { expect, test } from "bun:test";
import { COMMANDS } from "./command_table.ts";
import { HELP, helpFor } from "./help.ts";
import { isHelpTopic, usageLines } from "./help_text.ts";

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

test("help on one command of a group is its usage alone; a group's is all of its commands'", () => {
  expect(helpFor("triggers list").split("\n").slice(0, 4)).toEqual([
    "Usage:",
    "  inlet triggers list [--json] [flags]       list triggers: a table (name, id, auth, methods, workflow, URL);",
    "                                             --json: the API's Trigger objects",
    "",
  ]);
  expect(
    helpFor("runs")
      .split("\n")
      .slice(1, 4)
      .map((l) => l.split(" ").slice(2, 5).join(" ")),
  ).toEqual(["inlet runs list", "inlet runs show", "inlet runs replay"]);
});

test("a help topic is a command or a group, not the start of a word", () => {
  expect([isHelpTopic(COMMANDS, "triggers"), isHelpTopic(COMMANDS, "triggers list"), isHelpTopic(COMMANDS, "help")]).toEqual([true, true, true]);
  expect([isHelpTopic(COMMANDS, "run"), isHelpTopic(COMMANDS, "trigger"), isHelpTopic(COMMANDS, "")]).toEqual([false, false, false]);
});

test("every command's help, the last one's too, has one blank line between its usage and the flags", () => {
  for (const c of COMMANDS) expect(helpFor(c.name)).toContain(`${usageLines(c).at(-1)}\n\nFlags`);
});
