import { loadServerConfig } from "../config/load_server_config.ts";
import type { ServerConfig } from "../config/server_config.ts";
import { openCore, type Core } from "../core.ts";

/** Opens the data (store, key, plugins, triggers) for one command and closes it after. */
export async function withCore<T>(config: ServerConfig, work: (core: Core) => Promise<T>): Promise<T> {
  const core = await openCore(config);
  try {
    return await work(core);
  } finally {
    await core.store.close();
  }
}

/**
 * Runs `work` on the data the server flags name (`--data-dir`, `--database-url` or their twins):
 * a command's exit code 0 once it is done.
 */
export async function onDataOf(serverArgs: string[], work: (core: Core, config: ServerConfig) => Promise<unknown>): Promise<number> {
  const config = loadServerConfig(serverArgs);
  await withCore(config, (core) => work(core, config));
  return 0;
}
