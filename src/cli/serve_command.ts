import { loadServerConfig } from "../config/server_config.ts";
import { startServer } from "../server.ts";
import { print } from "./output.ts";

/** `inlet serve`: until SIGTERM or SIGINT, then a graceful stop. */
export async function serve(args: string[]): Promise<number> {
  const config = loadServerConfig(args);
  const server = await startServer(config);
  if (server.adminToken) {
    print(`admin token (shown once; keep it, only its hash is stored): ${server.adminToken}`);
  }
  print(`inlet listening on ${server.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      server.stop().then(resolve, resolve);
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  return 0;
}
