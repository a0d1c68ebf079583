import type { Statement } from "bun:sqlite";
import { toTrigger, type TriggerRow } from "../rows.ts";
import type { StoredTrigger, TriggerStore } from "../trigger_store.ts";
import type { SqliteConnection } from "./connection.ts";

/** The triggers on SQLite: every change bumps the revision in its own transaction, which other processes poll. */
export class SqliteTriggers implements TriggerStore {
  private readonly bumpRevision: Statement;

  constructor(private readonly connection: SqliteConnection) {
    this.bumpRevision = connection.prepare("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'triggers_revision'");
  }

  private get db() {
    return this.connection.db;
  }

  listTriggers(): Promise<StoredTrigger[]> {
    return this.connection.guard(() =>
      this.db.query<TriggerRow, []>("SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers ORDER BY seq DESC").all().map(toTrigger),
    );
  }

  getTrigger(id: string): Promise<StoredTrigger | null> {
    return this.connection.guard(() => {
      const row = this.db.query<TriggerRow, [string]>("SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers WHERE id = ?").get(id);
      return row ? toTrigger(row) : null;
    });
  }

  insertTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.connection.change(() =>
      this.db.transaction(() => {
        this.db.run(
          "INSERT INTO triggers (id, token, config, secret_sealed, app_secret_sealed, armed_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          [c.id, c.token, JSON.stringify(c), trigger.secretSealed, trigger.appSecretSealed, trigger.armedUntil ?? null, c.createdAt, c.updatedAt],
        );
        this.bumpRevision.run();
      }).immediate(),
    );
  }

  updateTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.connection.change(() =>
      this.db.transaction(() => {
        this.db.run("UPDATE triggers SET token = ?, config = ?, secret_sealed = ?, app_secret_sealed = ?, armed_until = ?, updated_at = ? WHERE id = ?", [
          c.token,
          JSON.stringify(c),
          trigger.secretSealed,
          trigger.appSecretSealed,
          trigger.armedUntil ?? null,
          c.updatedAt,
          c.id,
        ]);
        this.bumpRevision.run();
      }).immediate(),
    );
  }

  deleteTrigger(id: string): Promise<boolean> {
    return this.connection.change(() =>
      this.db.transaction(() => {
        const removed = this.db.run("DELETE FROM triggers WHERE id = ?", [id]).changes > 0;
        if (!removed) return false;
        this.db.run("DELETE FROM runs WHERE trigger_id = ?", [id]);
        this.db.run("DELETE FROM activity WHERE trigger_id = ?", [id]);
        this.db.run("DELETE FROM dedup_keys WHERE trigger_id = ?", [id]);
        this.bumpRevision.run();
        return true;
      }).immediate(),
    );
  }

  triggersRevision(): Promise<number> {
    return this.connection.guard(() => Number(this.db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'triggers_revision'").get()?.value ?? 0));
  }
}
