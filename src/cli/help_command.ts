import { UsageError } from "../config/usage_error.ts";
import type { ParsedArgs } from "./args.ts";
import type { CliCommand } from "./command.ts";
import { helpOn, helpText, isHelpTopic } from "./help_text.ts";
import { print } from "./output.ts";

/** `inlet help [COMMAND]`: every command's usage, or one command's or group's (as `inlet COMMAND --help`). */
export async function help({ positional: [topic, ...more] }: ParsedArgs, commands: readonly CliCommand[]): Promise<number> {
  if (topic === undefined) {
    print(helpText(commands));
    return 0;
  }
  if (topic.startsWith("-")) throw new UsageError(`unknown flag ${topic} (see 'inlet help')`);
  if (!isHelpTopic(commands, topic)) throw new UsageError(`unknown command '${topic}' (see 'inlet help')`);
  if (more.length) throw new UsageError(`unexpected argument ${more[0]} (inlet help COMMAND)`);
  print(helpOn(commands, topic));
  return 0;
}
