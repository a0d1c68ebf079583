import type { SQL } from "bun";
import { SchemaTooNew } from "../errors.ts";
import { PG_MIGRATIONS } from "./migrations.ts";

/** pg_advisory_xact_lock key held while migrating ("inlet" in ASCII). */
const MIGRATION_LOCK = 0x696e6c6574;

/**
 * Applies the migrations the database lacks, in one transaction under an advisory lock (instances
 * starting together migrate once); refuses a schema newer than this inlet. The versions applied.
 */
export function applyMigrations(sql: SQL, where: string): Promise<number[]> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`;
    const done = new Set<number>((await tx`SELECT version FROM schema_migrations`).map((r: { version: number }) => r.version));
    const known = Math.max(...PG_MIGRATIONS.map((m) => m.version));
    const found = Math.max(0, ...done);
    if (found > known) throw new SchemaTooNew(where, found, known);
    const applied: number[] = [];
    for (const migration of PG_MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx`INSERT INTO schema_migrations (version, name, applied_at) VALUES (${migration.version}, ${migration.name}, ${new Date().toISOString()})`;
      applied.push(migration.version);
    }
    return applied;
  });
}
