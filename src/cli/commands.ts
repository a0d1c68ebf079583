import { UsageError } from "../config/usage_error.ts";
import { subcommandFirst } from "./args.ts";
import type { CliCommand } from "./command.ts";
import { commandArgs, groupOf } from "./command_args.ts";
import { COMMANDS } from "./command_table.ts";
import { HELP, helpFor } from "./help.ts";
import { flushOutput, print } from "./output.ts";

/** Runs one CLI command; returns the exit code once its output is written. Errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const code = await dispatch(argv);
  await flushOutput();
  return code;
}

/** Other spellings of a command. */
const ALIASES: Record<string, string> = { "--version": "version", "--help": "help", "-h": "help" };

const asksForHelp = (words: string[]) => words.includes("--help") || words.includes("-h");

/** Not run: a failure, with its one line on stderr like every other (README, "Commands and flags"). */
function refuse(usage: string, reason: string): number {
  print(usage);
  process.stderr.write(`inlet: ${reason}\n`);
  return 2;
}

async function dispatch(argv: string[]): Promise<number> {
  const [word, ...given] = argv;
  if (word === undefined) return refuse(HELP, "no command given (the commands are above)");
  try {
    const name = ALIASES[word] ?? word;
    const group = COMMANDS.filter((c) => groupOf(c) === name);
    if (group.length) return await runInGroup(name, group, subcommandFirst(given));
    // One word names a command outside the groups: `inlet "triggers list"` is none.
    const command = COMMANDS.find((c) => c.name === name && !groupOf(c));
    if (!command) throw new UsageError(`unknown command '${word}' (see 'inlet help')`);
    return await runCommand(command, given);
  } catch (error) {
    return failed(error, error instanceof UsageError ? 2 : 1);
  }
}

/** A failure's one line on stderr; its exit code. */
function failed(error: unknown, code: number): number {
  const message = (error as Error)?.message ?? String(error);
  process.stderr.write(`inlet: ${message.split("\n")[0]}\n`);
  return code;
}

/** `inlet GROUP COMMAND …`; the group alone (`inlet triggers`, `inlet triggers --data-dir D`) prints its usage. */
async function runInGroup(name: string, group: CliCommand[], args: string[]): Promise<number> {
  if (asksForHelp(args)) {
    print(helpFor(name));
    return 0;
  }
  const [sub, ...words] = args;
  if (sub === undefined || sub.startsWith("-")) return refuse(helpFor(name), `'${name}' needs a command (its usage is above)`);
  const command = group.find((c) => c.name === `${name} ${sub}`);
  if (!command) throw new UsageError(`unknown command '${name} ${sub}' (${group.map((c) => c.name.slice(name.length + 1)).join(", ")})`);
  return runCommand(command, words);
}

/** A command whose words are words alone (`inlet help`, `inlet version`) reads no `--help` either. */
async function runCommand(command: CliCommand, words: string[]): Promise<number> {
  if (command.reads !== "words" && asksForHelp(words)) {
    print(helpFor(groupOf(command) ?? command.name));
    return 0;
  }
  if (command.failureExit === undefined) return command.run(commandArgs(command, words, COMMANDS), COMMANDS);
  try {
    return await command.run(commandArgs(command, words, COMMANDS), COMMANDS);
  } catch (error) {
    await flushOutput();
    return failed(error, command.failureExit);
  }
}
