import { atMost, parseArgs, type ParsedArgs } from "./args.ts";
import type { CliCommand } from "./command.ts";

/** The group a command belongs to (`triggers` for `triggers list`); none for `sign`. */
export const groupOf = (command: CliCommand): string | undefined => (command.name.includes(" ") ? command.name.split(" ")[0] : undefined);

/** The flags a command reads: its own, and its group's others' when it takes them. */
function knownFlags(command: CliCommand, commands: readonly CliCommand[]): Record<string, "value" | "flag"> {
  const group = groupOf(command);
  const from = command.takesSiblingFlags ? commands.filter((c) => groupOf(c) === group) : [command];
  return Object.fromEntries(from.flatMap((c) => c.flags.map((f) => [f.name, f.value === undefined ? "flag" : "value"] as const)));
}

/** The one-letter spellings of a command's flags: `{ f: "file" }`. */
const shortFlags = (command: CliCommand): Record<string, string> => Object.fromEntries(command.flags.flatMap((f) => (f.short ? [[f.short, f.name]] : [])));

/**
 * A command's words read as its entry says: its flags and the server flags told apart, an
 * unknown flag, a missing value or a word past the ones it takes refused.
 */
export function commandArgs(command: CliCommand, words: string[], commands: readonly CliCommand[]): ParsedArgs {
  if (command.reads === "server flags") return { options: {}, positional: [], serverArgs: words };
  if (command.reads === "words") return { options: {}, positional: words, serverArgs: [] };
  const parsed = parseArgs(words, knownFlags(command, commands), shortFlags(command));
  atMost(parsed.positional, command.takes, command.extraHint ?? `see 'inlet ${groupOf(command) ?? command.name} --help'`);
  return parsed;
}
