import { ConfigFileRefused } from "../config/config_file_refused.ts";
import { loadServerConfig } from "../config/load_server_config.ts";
import { startServer } from "../server.ts";
import type { ParsedArgs } from "./args.ts";
import { flushOutput, print, printWarnings } from "./output.ts";
import { startupLines } from "./startup_lines.ts";

/** `inlet serve`: until SIGTERM or SIGINT, then a graceful stop. */
export async function serve({ serverArgs }: ParsedArgs): Promise<number> {
  const config = loadServerConfig(serverArgs);
  // Listening for the signals from before the port is bound: one that arrives while the server
  // starts (a script may send it as soon as the port answers) stops it once started, gracefully.
  let onSignal = () => void (signalled = true);
  let signalled = false;
  const handler = () => onSignal();
  process.once("SIGTERM", handler);
  process.once("SIGINT", handler);
  const server = await startServer(config).catch(async (error: unknown) => {
    // Every problem of a --config file on its own line, before the one-line reason.
    if (error instanceof ConfigFileRefused) {
      printWarnings(error.problems);
      await flushOutput();
    }
    throw error;
  });
  const stopped = new Promise<void>((resolve) => {
    onSignal = () => void server.stop().then(resolve, resolve);
    if (signalled) onSignal();
  });
  const lines = startupLines(server, config, { env: process.env, pid: process.pid });
  printWarnings(lines.stderr);
  // One write, so that the listening line scripts wait for comes after the others.
  print(lines.stdout.join("\n"));
  await flushOutput();
  await stopped;
  return 0;
}
