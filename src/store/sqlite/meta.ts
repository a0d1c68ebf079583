import type { MetaStore } from "../meta_store.ts";
import type { SqliteConnection } from "./connection.ts";

/** The `meta` table on SQLite: each write a transaction of its own, on disk when it resolves. */
export class SqliteMeta implements MetaStore {
  constructor(private readonly connection: SqliteConnection) {}

  getMeta(key: string): Promise<string | null> {
    return this.connection.guard(() => this.connection.db.query<{ value: string }, [string]>("SELECT value FROM meta WHERE key = ?").get(key)?.value ?? null);
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.connection.change(() => {
      this.connection.db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
    });
  }

  setMetaIfAbsent(key: string, value: string): Promise<string> {
    return this.connection.change(() => {
      this.connection.db.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", [key, value]);
      return this.connection.db.query<{ value: string }, [string]>("SELECT value FROM meta WHERE key = ?").get(key)!.value;
    });
  }
}
