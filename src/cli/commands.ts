import { UsageError } from "../config/server_config.ts";
import { VERSION } from "../version.ts";
import { HELP, helpFor } from "./help.ts";
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
const GROUPS = new Set(["triggers", "runs", "plugins"]);

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const known = command === "serve" || command === "sign" || command === "migrate" || GROUPS.has(command ?? "");
  if (known && (args.includes("--help") || args.includes("-h") || (GROUPS.has(command!) && args.length === 0))) {
    print(helpFor(command!));
    return args.length === 0 ? 2 : 0;
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
      case "migrate":
        return await migrate(args, print);
      case "version":
      case "--version":
        print(`inlet ${VERSION}`);
        return 0;
      case "help":
      case "--help":
      case "-h":
      case undefined:
        print(HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${command}' (see 'inlet help')`);
    }
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    process.stderr.write(`inlet: ${message.split("\n")[0]}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
