import { secretsInEnvironment } from "../config/secret_files.ts";
import type { ServerConfig } from "../config/server_config.ts";
import type { RunningServer } from "../server.ts";

/** An admin token shorter than this gets a warning at start (the shortest taken is 16). */
export const ADVISED_ADMIN_TOKEN_LENGTH = 32;

/**
 * What `inlet serve` prints once it listens: the admin token (or how to get a new one), the
 * panel's address, and last the line scripts wait for. Warnings go to stderr, with those about
 * the server's own secrets (`own`: its environment and process id).
 */
export function startupLines(
  server: Pick<RunningServer, "url" | "baseUrl" | "adminToken" | "adminTokenFrom" | "warnings">,
  config: Pick<ServerConfig, "dataDir" | "databaseUrl" | "adminToken">,
  own: { env: Record<string, string | undefined>; pid: number } = { env: {}, pid: 0 },
): { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  if (server.adminToken) stdout.push(`admin token (shown once; keep it, only its hash is stored): ${server.adminToken}`);
  // Worded without "admin token:", which scripts read the generated token from.
  else if (server.adminTokenFrom === "store") stdout.push(`lost the token printed at the first start? ${resetCommand(config)} prints a new one`);
  stdout.push(`panel: ${server.baseUrl}/`);
  stdout.push(`inlet listening on ${server.url}`);
  return { stdout, stderr: [...server.warnings, ...secretWarnings(config, own.env, own.pid)] };
}

/**
 * A short admin token, and secrets held in the environment: commands run as the server's user,
 * so a command workflow can read `/proc/<pid>/environ` (README "Admin authentication and the
 * server's own secrets"); the `*_FILE` variables keep them out of it.
 */
function secretWarnings(config: Pick<ServerConfig, "adminToken">, env: Record<string, string | undefined>, pid: number): string[] {
  const lines: string[] = [];
  const token = config.adminToken;
  if (token !== undefined && token.length < ADVISED_ADMIN_TOKEN_LENGTH) {
    const from = env.INLET_ADMIN_TOKEN_FILE ? "INLET_ADMIN_TOKEN_FILE" : "INLET_ADMIN_TOKEN";
    lines.push(
      `warning: the admin token (${from}) is ${token.length} characters; use at least ${ADVISED_ADMIN_TOKEN_LENGTH}, which are much harder to guess (e.g. openssl rand -hex 32)`,
    );
  }
  const held = secretsInEnvironment(env);
  if (held.length > 0) {
    lines.push(
      `note: ${held.join(", ")} ${held.length === 1 ? "is" : "are"} in the server's environment, which command workflows can read from /proc/${pid}/environ; ` +
        `set ${held.map((name) => `${name}_FILE`).join(", ")} to ${held.length === 1 ? "a file holding the value" : "files holding the values"} instead`,
    );
  }
  return lines;
}

/** The `inlet admin-token reset` command for the store this config names. */
export function resetCommand(config: Pick<ServerConfig, "dataDir" | "databaseUrl">): string {
  if (config.databaseUrl) return "'inlet admin-token reset' with the same --database-url";
  return `'inlet admin-token reset --data-dir ${config.dataDir}'`;
}
