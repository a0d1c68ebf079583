import type { ParsedArgs } from "./args.ts";

/** A flag of one command (server flags such as `--data-dir` are every command's, and not listed). */
export interface CommandFlag {
  /** Without its dashes: `overlap` for `--overlap`. */
  name: string;
  /** What its value is (`SECONDS`); absent for a flag that stands alone (`--json`). */
  value?: string;
  /** A one-letter spelling, `f` for `-f FILE` (the usage shows it in place of the long one). */
  short?: string;
  help: string;
}

/** One way to call a command, as the help shows it. */
export interface UsageForm {
  /** The words after `inlet NAME`; a second line continues under the first word. */
  usage: string[];
  /** What it does, as the lines the help prints beside (or under) the usage. */
  description: string[];
}

/** How a command's words are read before its handler runs. */
export type CommandReads =
  /** Its own flags, the server flags, and up to `takes` other words (ids…). */
  | "flags"
  /** Only the server flags, left to loadServerConfig, which refuses anything else in its own words. */
  | "server flags"
  /** Words alone (`inlet help COMMAND`): no flag, not even --help, is read for it. */
  | "words";

/** One entry of the CLI's command table: what dispatch, help and flag parsing all read. */
export interface CliCommand extends UsageForm {
  /** `triggers create`: the group word, if any, then the command word. */
  name: string;
  /** Another way to call it, with its own usage and description (`inlet migrate --from-data-dir …`). */
  alsoForm?: UsageForm;
  reads: CommandReads;
  flags: CommandFlag[];
  /** How many words besides flags it takes (when it reads flags); one more is refused. */
  takes: number;
  /** What the refusal of an extra word points to, when not the group's `see 'inlet GROUP --help'`. */
  extraHint?: string;
  /**
   * Accepts, and ignores, the flags of the other commands of its group: the triggers and runs
   * commands always have, so that a script's `inlet triggers show ID --json` keeps working.
   */
  takesSiblingFlags?: true;
  /**
   * The exit code of any failure, usage errors included, where the usual 2 means something else
   * (`inlet diff`: 2 is "something would change").
   */
  failureExit?: number;
  /** Runs it; the exit code once done. `commands` is the table itself, for `inlet help`. */
  run: (args: ParsedArgs, commands: readonly CliCommand[]) => Promise<number>;
}
