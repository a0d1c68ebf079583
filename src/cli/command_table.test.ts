import { expect, test } from "bun:test";
import { OPTIONS } from "../config/server_config.ts";
import { UsageError } from "../config/usage_error.ts";
import { commandArgs } from "./command_args.ts";
import { COMMANDS } from "./command_table.ts";
import { usageLines } from "./help_text.ts";

const command = (name: string) => COMMANDS.find((c) => c.name === name)!;

test("every flag a command reads is in its usage, and every flag its usage shows is its own or a server flag", () => {
  const serverFlags = OPTIONS.map((o) => o.flag).filter(Boolean);
  for (const c of COMMANDS) {
    const shown = usageLines(c).join("\n");
    for (const flag of c.flags) {
      const spelled = `${flag.short ? `-${flag.short}` : `--${flag.name}`}${flag.value ? ` ${flag.value}` : ""}`;
      expect({ command: c.name, shown: shown.includes(spelled) }).toEqual({ command: c.name, shown: true });
    }
    const usage = [c.usage, c.alsoForm?.usage ?? []].flat().join(" ");
    for (const [written] of usage.matchAll(/--[a-z-]+/g)) {
      expect({ command: c.name, written, known: c.flags.some((f) => `--${f.name}` === written) || serverFlags.includes(written) }).toEqual({
        command: c.name,
        written,
        known: true,
      });
    }
  }
});

test("command names are unique, and a group's name is no command of its own", () => {
  const names = COMMANDS.map((c) => c.name);
  expect(new Set(names).size).toBe(names.length);
  for (const name of names.filter((n) => n.includes(" "))) expect(names).not.toContain(name.split(" ")[0]);
});

test("a triggers or runs command accepts its siblings' flags (scripts pass them), a plugins command only its own", () => {
  expect(commandArgs(command("triggers show"), ["ID", "--json"], COMMANDS)).toEqual({ options: { json: true }, positional: ["ID"], serverArgs: [] });
  expect(commandArgs(command("runs show"), ["ID", "--limit", "5"], COMMANDS).options).toEqual({ limit: "5" });
  expect(() => commandArgs(command("plugins list"), ["--dir", "x"], COMMANDS)).toThrow(new UsageError("unknown flag --dir (see 'inlet help')"));
  expect(() => commandArgs(command("sign"), ["ID", "--json"], COMMANDS)).toThrow("unknown flag --json");
});

test("a word past the ones a command takes is refused, pointing to its usage", () => {
  expect(() => commandArgs(command("triggers show"), ["a", "b"], COMMANDS)).toThrow(new UsageError("unexpected argument b (see 'inlet triggers --help')"));
  expect(() => commandArgs(command("sign"), ["a", "b"], COMMANDS)).toThrow(new UsageError("unexpected argument b (see 'inlet sign --help')"));
  expect(() => commandArgs(command("migrate"), ["now"], COMMANDS)).toThrow(new UsageError("unexpected argument now (see 'inlet help')"));
  expect(() => commandArgs(command("admin-token reset"), ["x"], COMMANDS)).toThrow(
    new UsageError("unexpected argument x (inlet admin-token reset [--data-dir DIR | --database-url URL])"),
  );
});

test("serve leaves its words to the server flags' reader, help and version take words as they are", () => {
  // loadServerConfig has its own words for these (`--log-requests must be true or false`).
  expect(commandArgs(command("serve"), ["--log-requests", "maybe", "-x"], COMMANDS)).toEqual({
    options: {},
    positional: [],
    serverArgs: ["--log-requests", "maybe", "-x"],
  });
  expect(commandArgs(command("help"), ["--all"], COMMANDS)).toEqual({ options: {}, positional: ["--all"], serverArgs: [] });
  expect(commandArgs(command("version"), ["--json"], COMMANDS).positional).toEqual(["--json"]);
});

test("a flag's one-letter spelling is read as the flag (apply -f FILE, export -o FILE); the long one works too", () => {
  expect(commandArgs(command("apply"), ["-f", "inlet.yaml", "--dry-run"], COMMANDS).options).toEqual({ file: "inlet.yaml", "dry-run": true });
  expect(commandArgs(command("apply"), ["--file=inlet.yaml"], COMMANDS).options).toEqual({ file: "inlet.yaml" });
  expect(commandArgs(command("export"), ["-o", "out.json", "--data-dir", "/d"], COMMANDS)).toEqual({
    options: { output: "out.json" },
    positional: [],
    serverArgs: ["--data-dir", "/d"],
  });
  expect(() => commandArgs(command("apply"), ["-f"], COMMANDS)).toThrow(new UsageError("-f needs a value"));
  // Another command's letter is no flag here.
  expect(() => commandArgs(command("diff"), ["-o", "x"], COMMANDS)).toThrow(new UsageError("unexpected argument -o (see 'inlet diff --help')"));
});
