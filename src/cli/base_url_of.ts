import { isGiven } from "../config/load_server_config.ts";
import { publicBaseUrl } from "../config/base_url.ts";
import { BASE_URL_META } from "../records/meta_keys.ts";
import type { Core } from "../core.ts";

/**
 * The base URL for the trigger URLs and curl commands a command prints: `--base-url`
 * (INLET_BASE_URL), or `http://HOST:PORT` when `--host`/`--port` (or their twins) were given;
 * else the one the last server started on this store recorded (its real port and host), else
 * the defaults'.
 */
export async function baseUrlOf(core: Core): Promise<string> {
  const { config } = core;
  const fromFlags = publicBaseUrl(config, config.port);
  if (config.baseUrl || isGiven(config, "host") || isGiven(config, "port")) return fromFlags;
  return (await core.store.getMeta(BASE_URL_META)) ?? fromFlags;
}
