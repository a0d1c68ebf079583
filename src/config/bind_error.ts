import { hostPort } from "./base_url.ts";
import { UsageError } from "./usage_error.ts";
import type { ServerConfig } from "./server_config.ts";

/** A port that cannot be bound, said the way a user can act on. */
export function explainBindError(error: unknown, config: Pick<ServerConfig, "host" | "port">): unknown {
  const code = (error as { code?: string })?.code;
  const where = hostPort(config.host, config.port);
  if (code === "EADDRINUSE") {
    return new UsageError(
      `cannot listen on ${where}: the port is in use (another inlet?); stop what listens there or choose another with --port (INLET_PORT; 0 = any free port)`,
    );
  }
  if (code === "EACCES") return new UsageError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges); choose another with --port`);
  if (code === "EADDRNOTAVAIL") return new UsageError(`cannot listen on ${where}: no such address on this machine; check --host (INLET_HOST)`);
  return error;
}
