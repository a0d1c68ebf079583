import { readFileSync } from "node:fs";
import { isGiven, publicBaseUrl, UsageError, type ServerConfig } from "../config/server_config.ts";
import { BASE_URL_META } from "../records/meta_keys.ts";
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

/** A JSON document from a file, or from stdin with `-`. */
export function readInput(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${path === "-" ? "stdin" : path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}
