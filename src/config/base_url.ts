import type { ServerConfig } from "./server_config.ts";

/**
 * The base URL trigger URLs are built from: `--base-url`, else `http://HOST:PORT`. A wildcard
 * host (0.0.0.0, ::) is where inlet listens, not an address anyone can call (browsers refuse
 * 0.0.0.0): its URLs name the loopback address of the same family instead.
 */
export function publicBaseUrl(config: Pick<ServerConfig, "baseUrl" | "host">, port: number): string {
  if (config.baseUrl) return config.baseUrl;
  return `http://${hostPort(WILDCARD_HOSTS[config.host] ?? config.host, port)}`;
}

/** `host:port`, an IPv6 host in brackets. */
export const hostPort = (host: string, port: number) => `${host.includes(":") ? `[${host}]` : host}:${port}`;

const WILDCARD_HOSTS: Record<string, string> = { "0.0.0.0": "127.0.0.1", "::": "::1", "[::]": "::1", "::0": "::1" };

/**
 * Whether a base URL names this machine only (loopback, `localhost`, a wildcard address), so
 * that trigger URLs built from it cannot be called from anywhere else.
 *
 * @example
 * localOnly("http://127.0.0.1:8080") // true
 * localOnly("https://hooks.example.com") // false
 */
export function localOnly(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "0.0.0.0" ||
    host === "::1" ||
    host === "::" ||
    host === "::ffff:7f00:1"
  );
}

/** The start-up note for a base URL that only this machine can call; null when others can. */
export function localOnlyNote(baseUrl: string, explicit: boolean): string | null {
  if (explicit || !localOnly(baseUrl)) return null;
  return (
    `note: trigger URLs and curl commands use ${baseUrl}, which only this machine can call; ` +
    "set INLET_BASE_URL (or --base-url) to the address senders use, e.g. https://hooks.example.com"
  );
}
