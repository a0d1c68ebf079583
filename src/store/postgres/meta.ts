import type { MetaStore } from "../meta_store.ts";
import type { PostgresConnection } from "./connection.ts";

/** The `meta` table on PostgreSQL. */
export class PostgresMeta implements MetaStore {
  constructor(private readonly connection: PostgresConnection) {}

  getMeta(key: string): Promise<string | null> {
    return this.connection.guard(async (sql) => ((await sql`SELECT value FROM meta WHERE key = ${key}`)[0]?.value as string | undefined) ?? null);
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.connection.guard(async (sql) => {
      await sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`;
    });
  }

  /** Sets `key` only if it has no value yet; returns the value that holds (for values several instances race to create). */
  setMetaIfAbsent(key: string, value: string): Promise<string> {
    return this.connection.guard(async (sql) => {
      await sql`INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
      return (await sql`SELECT value FROM meta WHERE key = ${key}`)[0].value as string;
    });
  }
}
