import { flagValue, takesNextWord } from "../config/load_server_config.ts";
import { OPTIONS } from "../config/server_config.ts";
import { UsageError } from "../config/usage_error.ts";

export interface ParsedArgs {
  /** The command's own options. */
  options: Record<string, string | true>;
  /** Words that are not flags (ids…). */
  positional: string[];
  /** Server flags (`--data-dir` and the rest), for loadServerConfig. */
  serverArgs: string[];
}

/**
 * Splits a command's arguments into its own options (`known`), server flags and positional
 * words. `--name value` and `--name=value` both work, and `-f value` for a flag whose one-letter
 * spelling `shorts` maps to its name (`{ f: "file" }`).
 */
export function parseArgs(args: string[], known: Record<string, "value" | "flag">, shorts: Record<string, string> = {}): ParsedArgs {
  const options: Record<string, string | true> = {};
  const positional: string[] = [];
  const serverArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const short = /^-[A-Za-z]$/.test(arg) ? shorts[arg.slice(1)] : undefined;
    if (short !== undefined) {
      options[short] = known[short] === "value" ? flagValue(arg, args[++i]) : true;
      continue;
    }
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const kind = known[name];
    if (kind === "flag") {
      options[name] = true;
      continue;
    }
    if (kind === "value") {
      options[name] = eq > 0 ? arg.slice(eq + 1) : flagValue(`--${name}`, args[++i]);
      continue;
    }
    const server = OPTIONS.find((o) => o.flag === `--${name}`);
    if (!server) throw new UsageError(`unknown flag --${name} (see 'inlet help')`);
    serverArgs.push(arg);
    if (eq < 0 && takesNextWord(server, args[i + 1])) serverArgs.push(flagValue(`--${name}`, args[++i]));
  }
  return { options, positional, serverArgs };
}

/**
 * Refuses words past the `count` a command takes: `inlet triggers list orders` is not a filter,
 * and `inlet runs show A B` shows no B. `hint` says where its usage is.
 */
export function atMost(positional: string[], count: number, hint: string): void {
  if (positional.length > count) throw new UsageError(`unexpected argument ${positional[count]} (${hint})`);
}

/**
 * A command group's arguments with its subcommand first, so that server flags may come before
 * it (`inlet triggers --data-dir /srv/inlet list`). Unchanged when no subcommand word is found.
 */
export function subcommandFirst(args: string[]): string[] {
  for (let i = 0; i < args.length; ) {
    const arg = args[i];
    if (!arg.startsWith("-")) return [arg, ...args.slice(0, i), ...args.slice(i + 1)];
    const option = arg.includes("=") ? undefined : OPTIONS.find((o) => o.flag && o.flag === arg);
    if (!option && !arg.includes("=")) return args;
    i += option && takesNextWord(option, args[i + 1]) ? 2 : 1;
  }
  return args;
}
