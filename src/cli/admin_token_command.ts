import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { sqlitePathIn } from "../store/sqlite/sqlite_store.ts";
import { resetAdminToken } from "../auth/admin_token.ts";
import { explainDataDirError } from "../config/data_dir_error.ts";
import { redactUrl } from "../config/redact_url.ts";
import { loadServerConfig } from "../config/load_server_config.ts";
import { UsageError } from "../config/usage_error.ts";
import { openStore } from "../core.ts";
import type { ParsedArgs } from "./args.ts";
import { print } from "./output.ts";

/**
 * `inlet admin-token reset`: the way back in when the admin token is lost. A new token is
 * printed once and its hash replaces the stored one; running servers on the same data dir or
 * database switch to it within a second.
 */
export async function resetAdminTokenCommand({ serverArgs }: ParsedArgs): Promise<number> {
  const config = loadServerConfig(serverArgs);
  if (config.adminToken) {
    throw new UsageError(
      "INLET_ADMIN_TOKEN is set, so it is the admin token (every start stores it): use it, or run without it (INLET_ADMIN_TOKEN= inlet admin-token reset) for a generated one",
    );
  }
  const where = config.databaseUrl ? `PostgreSQL at ${redactUrl(config.databaseUrl)}` : resolve(config.dataDir);
  if (!config.databaseUrl && !existsSync(sqlitePathIn(config.dataDir))) {
    throw new UsageError(`${where} has no inlet.db: no admin token to reset there (check --data-dir; the first 'inlet serve' generates and prints one)`);
  }
  let store;
  try {
    store = await openStore(config);
  } catch (error) {
    throw config.databaseUrl ? error : explainDataDirError(error, config.dataDir);
  }
  try {
    const token = await resetAdminToken(store);
    print(
      [
        `new admin token (shown once; keep it, only its hash is stored): ${token}`,
        `the previous one no longer works: servers on ${where} switch to the new one within a second (a server started with INLET_ADMIN_TOKEN keeps that token)`,
      ].join("\n"),
    );
  } finally {
    await store.close();
  }
  return 0;
}
