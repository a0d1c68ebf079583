import { loadServerConfig } from "../config/server_config.ts";
import { startServer } from "../server.ts";
import { flushOutput, print, printWarnings } from "./output.ts";
import { startupLines } from "./startup_lines.ts";

/** `inlet serve`: until SIGTERM or SIGINT, then a graceful stop. */
export async function serve(args: string[]): Promise<number> {
  const config = loadServerConfig(args);
  const server = await startServer(config);
  // Listening for the signals before the listening line is out: a script may send one at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      server.stop().then(resolve, resolve);
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  const lines = startupLines(server, config);
  printWarnings(lines.stderr);
  // One write, so that the listening line scripts wait for comes after the others.
  print(lines.stdout.join("\n"));
  await flushOutput();
  await stopped;
  return 0;
}
