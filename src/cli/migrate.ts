import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { SealedBox } from "../auth/sealed_box.ts";
import { ADMIN_TOKEN_META, KEY_FINGERPRINT_META } from "../records/meta_keys.ts";
import { loadServerConfig } from "../config/load_server_config.ts";
import { UsageError } from "../config/usage_error.ts";
import { copySqliteToPostgres, CopyRefused, type CopySummary } from "../store/copy.ts";
import { PG_MIGRATIONS } from "../store/postgres/migrations.ts";
import { redactUrl } from "../config/redact_url.ts";
import { PostgresStore } from "../store/postgres/postgres_store.ts";
import { SqliteStore, sqlitePathIn } from "../store/sqlite/sqlite_store.ts";
import { openSqliteSource, SourceRefused, SQLITE_SCHEMA_VERSION, type SqliteSource } from "../store/sqlite_source.ts";
import { SchemaTooNew } from "../store/errors.ts";
import type { ParsedArgs } from "./args.ts";
import { printWarnings } from "./output.ts";

type Print = (line: string) => void;

const shellQuote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

const PG_SCHEMA_VERSION = Math.max(...PG_MIGRATIONS.map((m) => m.version));

const appliedLine = (versions: number[], where: string) => (versions.length > 0 ? `applied migrations ${versions.join(", ")} to ${where}` : null);

/**
 * `inlet migrate`: applies pending schema migrations to the store the flags name (so operators can
 * migrate before rolling out new instances); with `--from-data-dir DIR`, copies an embedded
 * SQLite data dir into an empty PostgreSQL database.
 */
export async function migrate({ options, serverArgs }: ParsedArgs, print: Print): Promise<number> {
  const config = loadServerConfig(serverArgs);
  const from = options["from-data-dir"];
  // Given on the command line (not by the environment, which isGiven would count too).
  const onCommandLine = (flag: string) => serverArgs.some((a) => a === flag || a.startsWith(`${flag}=`));
  const dataDirFlag = onCommandLine("--data-dir");
  if (from !== undefined) {
    if (dataDirFlag) {
      throw new UsageError("--data-dir has no use with --from-data-dir: the data dir copied is --from-data-dir, the target is --database-url");
    }
    if (!config.databaseUrl)
      throw new UsageError("--from-data-dir needs --database-url postgres://… (or INLET_DATABASE_URL): the empty PostgreSQL database to copy into");
    if (String(from).trim() === "") throw new UsageError("--from-data-dir needs a directory");
    return copyDataDir(String(from), config.databaseUrl, config.secretKey, print);
  }
  if (config.databaseUrl) {
    // `--data-dir` on the command line names the store to migrate: a database URL from the
    // environment must not silently take its place.
    if (dataDirFlag && !onCommandLine("--database-url")) {
      throw new UsageError(
        "--data-dir names the SQLite store to migrate, but INLET_DATABASE_URL is set and would be migrated instead: unset it (env -u INLET_DATABASE_URL inlet migrate --data-dir DIR), or leave --data-dir out to migrate PostgreSQL",
      );
    }
    const { applied, version } = await migratePostgres(config.databaseUrl);
    const where = `PostgreSQL at ${redactUrl(config.databaseUrl)}`;
    print(appliedLine(applied, where) ?? `schema up to date (version ${version}): ${where}`);
    return 0;
  }
  const { applied, version, path } = migrateSqlite(config.dataDir);
  print(appliedLine(applied, `SQLite at ${path}`) ?? `schema up to date (version ${version}): SQLite at ${path}`);
  return 0;
}

/** Applies PostgreSQL migrations (the store does, under its advisory lock; it refuses a newer schema). */
async function migratePostgres(url: string): Promise<{ applied: number[]; version: number }> {
  const store = await openOrRefuse(() => PostgresStore.open(url, { poolSize: 1 }));
  await store.close();
  return { applied: store.applied, version: PG_SCHEMA_VERSION };
}

function migrateSqlite(dataDir: string): { applied: number[]; version: number; path: string } {
  const path = resolve(sqlitePathIn(dataDir));
  // A missing file is a mistyped --data-dir far more often than a wish for a new database.
  if (!existsSync(path)) throw new UsageError(`${resolve(dataDir)} has no inlet.db: nothing to migrate ('inlet serve --data-dir ${dataDir}' creates one)`);
  let store: SqliteStore;
  try {
    store = new SqliteStore(path);
  } catch (error) {
    if (error instanceof SchemaTooNew) throw new UsageError(error.message);
    throw new UsageError(`${path} cannot be read as an SQLite database: ${(error as Error).message}`);
  }
  void store.close();
  return { applied: store.applied, version: SQLITE_SCHEMA_VERSION, path };
}

/** A store a newer inlet migrated is a usage error (use that inlet), not an outage. */
async function openOrRefuse<T>(open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw error instanceof SchemaTooNew ? new UsageError(error.message) : error;
  }
}

interface SourceKey {
  box: SealedBox | null;
  /** Where the key came from, for messages. */
  from: "INLET_SECRET_KEY" | string | null;
}

/** The key the data dir's secrets are sealed with: INLET_SECRET_KEY if set, else DIR/secret.key (read, never created). */
function loadSourceKey(source: SqliteSource, envKey: string | undefined): SourceKey {
  const file = join(source.dir, "secret.key");
  try {
    if (envKey) return { box: SealedBox.load(source.dir, envKey), from: "INLET_SECRET_KEY" };
    const box = SealedBox.fromKeyFile(file);
    return box ? { box, from: file } : { box: null, from: null };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Checks the key against the data dir before anything is copied: instances given another key
 * would refuse to start (or could not open a single secret). Returns the fingerprint to record
 * when the data dir predates recording one.
 */
function checkSourceKey(source: SqliteSource, key: SourceKey): string | null {
  const recorded = source.meta.get(KEY_FINGERPRINT_META) ?? null;
  const needed = recorded !== null || source.sampleSealed !== null;
  if (!key.box) {
    if (!needed) return null;
    throw new UsageError(`${source.dir} has no secret.key, so its server used INLET_SECRET_KEY: set INLET_SECRET_KEY to that key to copy its secrets`);
  }
  const wrong = () =>
    new UsageError(
      `the secret key from ${key.from} is not the key ${source.dir}'s secrets were sealed with; set INLET_SECRET_KEY to the key its server used (the content of its secret.key)`,
    );
  if (recorded !== null) {
    if (key.box.fingerprint() !== recorded) throw wrong();
    return null;
  }
  if (source.sampleSealed !== null) {
    try {
      key.box.open(source.sampleSealed);
    } catch {
      throw wrong();
    }
  }
  return key.box.fingerprint();
}

async function copyDataDir(dir: string, url: string, envKey: string | undefined, print: Print): Promise<number> {
  let source: SqliteSource;
  try {
    source = openSqliteSource(dir);
  } catch (error) {
    throw error instanceof SourceRefused ? new UsageError(error.message) : error;
  }
  try {
    // The copy reads the columns of the current schema: an older file would fail half-way, cryptically.
    if (source.version < SQLITE_SCHEMA_VERSION) {
      throw new UsageError(
        `${source.path} is at schema version ${source.version}, this inlet's is ${SQLITE_SCHEMA_VERSION}: bring it up to date first with 'inlet migrate --data-dir ${shellQuote(source.dir)}' (its server stopped), then copy it`,
      );
    }
    const key = loadSourceKey(source, envKey);
    const fingerprint = checkSourceKey(source, key);
    const where = `PostgreSQL at ${redactUrl(url)}`;
    const { applied } = await migratePostgres(url);
    const line = appliedLine(applied, where);
    if (line) print(line);
    let summary: CopySummary;
    try {
      summary = await copySqliteToPostgres(source, url, { now: new Date(), fingerprint });
    } catch (error) {
      if (error instanceof CopyRefused) throw new UsageError(error.message);
      throw new Error(`copy to ${where} failed, nothing was written: ${(error as Error)?.message ?? error}`);
    }
    print(`copied ${source.path} to ${where}, in one transaction:`);
    print(`  ${summary.triggers} triggers, ${summary.runs} runs, ${summary.activity} Activity rows, ${summary.dedupKeys} dedup keys`);
    if (summary.alerts) print(`  ${summary.alerts} alert states, ${summary.pendingNotifications} notifications not yet delivered`);
    if (summary.destinationStates) print(`  ${summary.destinationStates} destination states (pauses and breakers)`);
    if (summary.requeued) print(`  ${summary.requeued} runs that were running are queued again (an instance executes them)`);
    if (summary.expiredKeys) print(`  ${summary.expiredKeys} expired dedup keys left behind`);
    if (summary.meta.length) print(`  meta: ${summary.meta.join(", ")}${summary.meta.includes(ADMIN_TOKEN_META) ? " (the admin token is unchanged)" : ""}`);
    if (source.served) {
      printWarnings([
        `warning: inlet serve is running on ${source.dir} (it holds its serve.lock); stop it: what it accepts after this copy is not in PostgreSQL`,
      ]);
    } else if (source.inUse) {
      printWarnings([
        `warning: ${source.path}-wal exists: a server may still be running on ${source.dir} (or it did not stop cleanly); stop it: what it accepts after this copy is not in PostgreSQL`,
      ]);
    }
    print(nextStep(source, key, where, url));
    return 0;
  } finally {
    source.close();
  }
}

function nextStep(source: SqliteSource, key: SourceKey, where: string, url: string): string {
  const shown = redactUrl(url);
  const serve = `  inlet serve --database-url ${shellQuote(shown)}${shown.includes("***") ? "   # with the real password" : ""}`;
  if (key.box === null) {
    return `next: no stored secret and no key recorded; give every instance one same INLET_SECRET_KEY (base64 of 32 bytes), then:\n${serve}`;
  }
  if (key.from === "INLET_SECRET_KEY") {
    return `next: INLET_SECRET_KEY is ${source.dir}'s key; start every instance on ${where} with that same INLET_SECRET_KEY:\n${serve}`;
  }
  return [
    `next: every instance needs INLET_SECRET_KEY set to the content of ${key.from} (the copied secrets are sealed with it; an instance with another key refuses to start):`,
    `  export INLET_SECRET_KEY="$(cat ${shellQuote(key.from!)})"`,
    serve,
    `keep ${key.from} safe: without that key the copied secrets cannot be opened`,
  ].join("\n");
}
