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
