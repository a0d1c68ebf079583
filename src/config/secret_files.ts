import { readFileSync } from "node:fs";
import { UsageError } from "./usage_error.ts";

/**
 * The server's own secrets, which may also be given by file: `X_FILE` names a file whose content
 * (one trailing newline removed) is the value of `X` (README "Admin authentication and the
 * server's own secrets"). A file keeps the secret out of the server's environment, which every
 * process of the same user (a command workflow included) can read from `/proc/<pid>/environ`.
 */
export const SECRET_VARIABLES = ["INLET_ADMIN_TOKEN", "INLET_SECRET_KEY", "INLET_DATABASE_URL"] as const;

/** A secret's file could not be read: the CLI prints the message (naming the variable and the path) and exits 1. */
export class SecretFileUnreadable extends Error {
  override name = "SecretFileUnreadable";
  readonly code = "secret_file_unreadable";
}

const set = (value: string | undefined): value is string => value !== undefined && value !== "";

/**
 * `env` with each secret given by file read into its variable (`INLET_ADMIN_TOKEN_FILE=/run/x`
 * → `INLET_ADMIN_TOKEN=<content of /run/x>`). Both `X` and `X_FILE` set is a usage error (which
 * one was meant?); an unreadable or empty file is an error naming the variable and the path.
 */
export function readSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const resolved = { ...env };
  for (const name of SECRET_VARIABLES) {
    const path = env[`${name}_FILE`];
    if (!set(path)) continue;
    if (set(env[name])) throw new UsageError(`${name} and ${name}_FILE are both set: give the value one way (${name}_FILE keeps it out of the environment)`);
    let content: string;
    try {
      content = readFileSync(path, "utf8");
    } catch (error) {
      throw new SecretFileUnreadable(`${name}_FILE: cannot read ${path} (${reason(error)})`);
    }
    const value = content.replace(/\r?\n$/, "");
    if (value === "") throw new UsageError(`${name}_FILE: ${path} is empty (it should hold the value of ${name})`);
    resolved[name] = value;
  }
  return resolved;
}

/** What a failed read says, in words. */
function reason(error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return (error as Error)?.message ?? String(error);
}

/**
 * The secrets this process holds in its environment (rather than by file or flag), for the
 * start-up note that command workflows can read them.
 */
export function secretsInEnvironment(env: Record<string, string | undefined>): string[] {
  return SECRET_VARIABLES.filter((name) => set(env[name]));
}
