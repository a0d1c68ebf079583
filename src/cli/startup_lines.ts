import type { ServerConfig } from "../config/server_config.ts";
import type { RunningServer } from "../server.ts";

/**
 * What `inlet serve` prints once it listens: the admin token (or how to get a new one), the
 * panel's address, and last the line scripts wait for. Warnings go to stderr.
 */
export function startupLines(
  server: Pick<RunningServer, "url" | "baseUrl" | "adminToken" | "adminTokenFrom" | "warnings">,
  config: Pick<ServerConfig, "dataDir" | "databaseUrl">,
): { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  if (server.adminToken) stdout.push(`admin token (shown once; keep it, only its hash is stored): ${server.adminToken}`);
  // Worded without "admin token:", which scripts read the generated token from.
  else if (server.adminTokenFrom === "store") stdout.push(`lost the token printed at the first start? ${resetCommand(config)} prints a new one`);
  stdout.push(`panel: ${server.baseUrl}/`);
  stdout.push(`inlet listening on ${server.url}`);
  return { stdout, stderr: server.warnings };
}

/** The `inlet admin-token reset` command for the store this config names. */
export function resetCommand(config: Pick<ServerConfig, "dataDir" | "databaseUrl">): string {
  if (config.databaseUrl) return "'inlet admin-token reset' with the same --database-url";
  return `'inlet admin-token reset --data-dir ${config.dataDir}'`;
}
