import { expect, test } from "bun:test";
import { UsageError } from "../config/usage_error.ts";
import { parseArgs, subcommandFirst } from "./args.ts";

test("a command's options, server flags and positional words are told apart; --name=value works", () => {
  const parsed = parseArgs(["ID", "--status=failed", "--dry-run", "--data-dir", "/tmp/d", "--limit", "5"], {
    status: "value",
    "dry-run": "flag",
    limit: "value",
  });
  expect(parsed).toEqual({ options: { status: "failed", "dry-run": true, limit: "5" }, positional: ["ID"], serverArgs: ["--data-dir", "/tmp/d"] });
});

test("a boolean server flag keeps a following true/false as its value, and leaves any other word positional", () => {
  expect(parseArgs(["--log-requests", "false", "ID"], {})).toEqual({ options: {}, positional: ["ID"], serverArgs: ["--log-requests", "false"] });
  expect(parseArgs(["--log-requests", "ID"], {})).toEqual({ options: {}, positional: ["ID"], serverArgs: ["--log-requests"] });
  // The same words as for `inlet serve` (loadServerConfig): off is a value, not a positional word.
  expect(parseArgs(["--log-requests", "off", "ID"], {})).toEqual({ options: {}, positional: ["ID"], serverArgs: ["--log-requests", "off"] });
  expect(parseArgs(["--log-requests", "0"], {})).toEqual({ options: {}, positional: [], serverArgs: ["--log-requests", "0"] });
});

test("unknown flags and missing values are usage errors that say which", () => {
  expect(() => parseArgs(["--nope"], {})).toThrow(new UsageError("unknown flag --nope (see 'inlet help')"));
  expect(() => parseArgs(["--limit"], { limit: "value" })).toThrow("--limit needs a value");
  // A flag where the value should be is a forgotten value, not the value.
  expect(() => parseArgs(["--limit", "--data-dir", "/x"], { limit: "value" })).toThrow("--limit needs a value (the next word, --data-dir, is a flag");
  expect(() => parseArgs(["--data-dir", "--limit", "5"], { limit: "value" })).toThrow("--data-dir needs a value");
  expect(parseArgs(["--name=--odd"], { name: "value" }).options).toEqual({ name: "--odd" });
});

test("server flags may come before a group's subcommand", () => {
  expect(subcommandFirst(["--data-dir", "/srv/inlet", "list", "--json"])).toEqual(["list", "--data-dir", "/srv/inlet", "--json"]);
  expect(subcommandFirst(["--port=9000", "list"])).toEqual(["list", "--port=9000"]);
  expect(subcommandFirst(["list", "--json"])).toEqual(["list", "--json"]);
  // No subcommand, or a flag that is not a server flag before it: left as given (the group prints its usage).
  expect(subcommandFirst(["--data-dir", "/srv/inlet"])).toEqual(["--data-dir", "/srv/inlet"]);
  expect(subcommandFirst(["--json", "list"])).toEqual(["--json", "list"]);
  // A boolean server flag takes a following true/false, and nothing else.
  expect(subcommandFirst(["--log-requests", "false", "list"])).toEqual(["list", "--log-requests", "false"]);
  expect(subcommandFirst(["--log-requests", "list"])).toEqual(["list", "--log-requests"]);
});
