import { expect, test } from "bun:test";
import { UsageError } from "../config/server_config.ts";
import { parseArgs } from "./args.ts";

test("a command's options, server flags and positional words are told apart; --name=value works", () => {
  const parsed = parseArgs(["ID", "--status=failed", "--dry-run", "--data-dir", "/tmp/d", "--limit", "5"], { status: "value", "dry-run": "flag", limit: "value" });
  expect(parsed).toEqual({ options: { status: "failed", "dry-run": true, limit: "5" }, positional: ["ID"], serverArgs: ["--data-dir", "/tmp/d"] });
});

test("unknown flags and missing values are usage errors that say which", () => {
  expect(() => parseArgs(["--nope"], {})).toThrow(new UsageError("unknown flag --nope (see 'inlet help')"));
  expect(() => parseArgs(["--limit"], { limit: "value" })).toThrow("--limit needs a value");
});
