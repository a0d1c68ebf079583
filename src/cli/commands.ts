import { UsageError } from "../config/server_config.ts";
import { adminToken } from "./admin_token_command.ts";
import { VERSION } from "../version.ts";
import { HELP, helpFor } from "./help.ts";
import { subcommandFirst } from "./args.ts";
import { migrate } from "./migrate.ts";
import { flushOutput, print } from "./output.ts";
import { plugins } from "./plugins_command.ts";
import { runs } from "./runs_command.ts";
import { serve } from "./serve_command.ts";
import { sign } from "./sign_command.ts";
import { triggers } from "./triggers_command.ts";

/** Runs one CLI command; returns the exit code once its output is written. Errors are one line on stderr. */
export async function runCli(argv: string[]): Promise<number> {
  const code = await dispatch(argv);
  await flushOutput();
  return code;
}

/** Commands with subcommands: alone, they print their part of the help. */
const GROUPS = new Set(["triggers", "runs", "plugins", "admin-token"]);

/** `inlet help COMMAND`: that command's usage, as `inlet COMMAND --help` prints it. */
function helpOn([topic, ...more]: string[]): number {
  if (topic.startsWith("-")) throw new UsageError(`unknown flag ${topic} (see 'inlet help')`);
  if (!HELP.includes(`  inlet ${topic} `) && !HELP.includes(`  inlet ${topic}\n`)) throw new UsageError(`unknown command '${topic}' (see 'inlet help')`);
  if (more.length) throw new UsageError(`unexpected argument ${more[0]} (inlet help COMMAND)`);
  print(helpFor(topic));
  return 0;
}

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...given] = argv;
  const group = GROUPS.has(command ?? "");
  const args = group ? subcommandFirst(given) : given;
  const known = command === "serve" || command === "sign" || command === "migrate" || group;
  const asked = args.includes("--help") || args.includes("-h");
  // A group without its subcommand (`inlet triggers`, `inlet triggers --data-dir D`) prints its usage.
  if (known && (asked || (group && (args.length === 0 || args[0].startsWith("-"))))) {
    print(helpFor(command!));
    if (asked) return 0;
    // Not run: a failure, with its one line on stderr like every other (CONTRACT §1).
    process.stderr.write(`inlet: '${command}' needs a command (its usage is above)\n`);
    return 2;
  }
  try {
    switch (command) {
      case "serve":
        return await serve(args);
      case "triggers":
        return await triggers(args);
      case "runs":
        return await runs(args);
      case "plugins":
        return await plugins(args);
      case "sign":
        return await sign(args);
      case "admin-token":
        return await adminToken(args);
      case "migrate":
        return await migrate(args, print);
      case "version":
      case "--version":
        if (args.length) throw new UsageError(`unexpected argument ${args[0]} ('inlet version' takes none)`);
        print(`inlet ${VERSION}`);
        return 0;
      case "help":
      case "--help":
      case "-h":
      case undefined:
        if (args.length) return helpOn(args);
        print(HELP);
        if (command !== undefined) return 0;
        process.stderr.write("inlet: no command given (the commands are above)\n");
        return 2;
      default:
        throw new UsageError(`unknown command '${command}' (see 'inlet help')`);
    }
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    process.stderr.write(`inlet: ${message.split("\n")[0]}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
