import { join } from "node:path";
import { BUILTIN_PLUGINS } from "../plugins/builtin.ts";
import { SealedBox } from "./auth/sealed_box.ts";
import { expressionRules } from "./checks/compile.ts";
import { explainDataDirError } from "./config/data_dir_error.ts";
import { UsageError } from "./config/usage_error.ts";
import type { ServerConfig } from "./config/server_config.ts";
import { parseFetchAllow } from "./config/provider_fetch_allow.ts";
import { ProviderFetch } from "./plugins/provider_fetch.ts";
import { PluginRegistry } from "./plugins/registry.ts";
import { KEY_FINGERPRINT_META } from "./records/meta_keys.ts";
import { PostgresStore } from "./store/postgres/postgres_store.ts";
import { SqliteStore, sqlitePathIn } from "./store/sqlite/sqlite_store.ts";
import type { Store } from "./store/store.ts";
import { needsGeneratedSecret } from "./triggers/secret_policy.ts";
import { TriggerService } from "./triggers/service.ts";
import type { TriggersAsCodeContext } from "./triggers_as_code/index.ts";

/** Everything a process needs to read and change triggers, shared by the server and the CLI. */
export interface Core {
  config: ServerConfig;
  store: Store;
  plugins: PluginRegistry;
  triggers: TriggerService;
  box: SealedBox;
  /** What plugins fetch from their providers: their own hosts and `--provider-fetch-allow`. */
  providerFetch: ProviderFetch;
}

/** Opens the store, the key, the plugins and the trigger index. */
export async function openCore(config: ServerConfig): Promise<Core> {
  let box: SealedBox;
  let store: Store;
  const plugins = await loadPlugins(config);
  try {
    box = SealedBox.load(config.dataDir, config.secretKey);
    store = await openStore(config);
  } catch (error) {
    throw explainDataDirError(error, config.dataDir);
  }
  try {
    await checkSecretKey(store, box, config);
  } catch (error) {
    await store.close();
    throw error;
  }
  const providerFetch = new ProviderFetch(parseFetchAllow(config.providerFetchAllow));
  const triggers = new TriggerService(store, box, { rules: expressionRules, plugins, fetchRules: providerFetch }, (s) => needsGeneratedSecret(s, plugins));
  await triggers.refresh(true);
  return { config, store, plugins, triggers, box, providerFetch };
}

/** What reading, applying and exporting a config file needs: the API's rules, the loaded plugins, the secret policy the trigger service has. */
export const configFileContext = ({ plugins }: Pick<Core, "plugins">): TriggersAsCodeContext => ({
  rules: expressionRules,
  plugins,
  needsGeneratedSecret: (settings) => needsGeneratedSecret(settings, plugins),
});

/** The built-in plugins and those of `--plugins-dir`. */
export async function loadPlugins(config: Pick<ServerConfig, "pluginsDir">): Promise<PluginRegistry> {
  const plugins = new PluginRegistry(BUILTIN_PLUGINS);
  if (config.pluginsDir) await plugins.loadDir(config.pluginsDir);
  return plugins;
}

/** The embedded SQLite store in the data dir, or the PostgreSQL database of `--database-url` (migrated). */
export async function openStore(config: ServerConfig): Promise<Store> {
  // INLET_GROUP_COMMIT=0 is a benchmark knob (one transaction per request), not a setting.
  const groupCommit = process.env.INLET_GROUP_COMMIT !== "0";
  if (config.databaseUrl) return PostgresStore.open(config.databaseUrl, { groupCommit });
  return new SqliteStore(sqlitePathIn(config.dataDir), { groupCommit });
}

/**
 * Every instance on one store must seal and open secrets with the same key. The first to start
 * records the key's fingerprint; one with another key refuses to start instead of failing on
 * every secret later.
 */
async function checkSecretKey(store: Store, box: SealedBox, config: ServerConfig): Promise<void> {
  const mine = box.fingerprint();
  if ((await store.setMetaIfAbsent(KEY_FINGERPRINT_META, mine)) === mine) return;
  const where = config.secretKey ? "INLET_SECRET_KEY" : `${join(config.dataDir, "secret.key")} (no INLET_SECRET_KEY set)`;
  throw new UsageError(
    `the secret key from ${where} is not the key this ${store.kind === "postgres" ? "database" : "data dir"}'s secrets were sealed with; ` +
      "give every instance the same INLET_SECRET_KEY (or restore the original secret.key)",
  );
}
