import type { Statement } from "bun:sqlite";
import { TokenTaken } from "../errors.ts";
import { toTrigger, type TriggerRow } from "../rows.ts";
import { destinationNames, parkedToken, type TriggerChanges } from "../trigger_changes.ts";
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

  private insertRow(trigger: StoredTrigger): void {
    const c = trigger.config;
    this.db.run(
      "INSERT INTO triggers (id, token, config, secret_sealed, app_secret_sealed, armed_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      [c.id, c.token, JSON.stringify(c), trigger.secretSealed, trigger.appSecretSealed, trigger.armedUntil ?? null, c.createdAt, c.updatedAt],
    );
  }

  private updateRow(trigger: StoredTrigger): void {
    const c = trigger.config;
    this.db.run("UPDATE triggers SET token = ?, config = ?, secret_sealed = ?, app_secret_sealed = ?, armed_until = ?, updated_at = ? WHERE id = ?", [
      c.token,
      JSON.stringify(c),
      trigger.secretSealed,
      trigger.appSecretSealed,
      trigger.armedUntil ?? null,
      c.updatedAt,
      c.id,
    ]);
    // A destination removed takes its state (pause, breaker) with it: re-added, it starts afresh.
    this.db.run("DELETE FROM destination_state WHERE trigger_id = ? AND destination NOT IN (SELECT value FROM json_each(?))", [c.id, destinationNames(c)]);
  }

  private deleteRows(id: string): boolean {
    const removed = this.db.run("DELETE FROM triggers WHERE id = ?", [id]).changes > 0;
    if (!removed) return false;
    this.db.run("DELETE FROM runs WHERE trigger_id = ?", [id]);
    this.db.run("DELETE FROM activity WHERE trigger_id = ?", [id]);
    this.db.run("DELETE FROM dedup_keys WHERE trigger_id = ?", [id]);
    this.db.run("DELETE FROM destination_state WHERE trigger_id = ?", [id]);
    return true;
  }

  insertTrigger(trigger: StoredTrigger): Promise<void> {
    return this.connection.change(() =>
      this.db
        .transaction(() => {
          this.insertRow(trigger);
          this.bumpRevision.run();
        })
        .immediate(),
    );
  }

  updateTrigger(trigger: StoredTrigger): Promise<void> {
    return this.connection.change(() =>
      this.db
        .transaction(() => {
          this.updateRow(trigger);
          this.bumpRevision.run();
        })
        .immediate(),
    );
  }

  deleteTrigger(id: string): Promise<boolean> {
    return this.connection.change(() =>
      this.db
        .transaction(() => {
          if (!this.deleteRows(id)) return false;
          this.bumpRevision.run();
          return true;
        })
        .immediate(),
    );
  }

  applyTriggers(changes: TriggerChanges): Promise<boolean> {
    return this.connection.change(() =>
      this.db
        .transaction(() => {
          if (this.revisionNow() !== changes.expectedRevision) return false;
          for (const id of changes.deletes) this.deleteRows(id);
          // Tokens may move between triggers (two swapping pinned tokens): each updated trigger lets
          // go of its own first, so the unique index never sees one token twice mid-way.
          for (const trigger of changes.updates) this.db.run("UPDATE triggers SET token = ? WHERE id = ?", [parkedToken(trigger.config.id), trigger.config.id]);
          for (const trigger of changes.updates) tokenChecked(trigger, () => this.updateRow(trigger));
          for (const trigger of changes.inserts) tokenChecked(trigger, () => this.insertRow(trigger));
          if (changes.deletes.length + changes.updates.length + changes.inserts.length > 0) this.bumpRevision.run();
          return true;
        })
        .immediate(),
    );
  }

  private revisionNow(): number {
    return Number(this.db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'triggers_revision'").get()?.value ?? 0);
  }

  triggersRevision(): Promise<number> {
    return this.connection.guard(() => this.revisionNow());
  }
}

/** Runs a trigger's write; the unique index refusing its token is TokenTaken (the transaction rolls back). */
function tokenChecked(trigger: StoredTrigger, write: () => void): void {
  try {
    write();
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" && /triggers\.token/.test((error as Error).message))
      throw new TokenTaken(trigger.config.name);
    throw error;
  }
}
