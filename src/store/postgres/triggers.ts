import type { SQL } from "bun";
import { toTrigger } from "../rows.ts";
import type { StoredTrigger, TriggerStore, TriggerWatch } from "../trigger_store.ts";
import type { PostgresConnection } from "./connection.ts";

/** The channel a trigger change is announced on (payload: the new revision). */
export const TRIGGERS_CHANNEL = "inlet_triggers";

/** The triggers on PostgreSQL: every change bumps the revision and is announced with NOTIFY, in one transaction. */
export class PostgresTriggers implements TriggerStore {
  constructor(private readonly connection: PostgresConnection) {}

  listTriggers(): Promise<StoredTrigger[]> {
    return this.connection.guard(async (sql) => (await sql`SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers ORDER BY seq DESC`).map(toTrigger));
  }

  getTrigger(id: string): Promise<StoredTrigger | null> {
    return this.connection.guard(async (sql) => {
      const [row] = await sql`SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers WHERE id = ${id}`;
      return row ? toTrigger(row) : null;
    });
  }

  /** Runs `change` and bumps the revision in one transaction; NOTIFY goes out on commit. */
  private changeTriggers<T>(change: (tx: SQL) => Promise<T>, changed: (result: T) => boolean = () => true): Promise<T> {
    return this.connection.guard((sql) =>
      sql.begin(async (tx) => {
        const result = await change(tx);
        if (changed(result)) {
          const [row] = await tx`UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'triggers_revision' RETURNING value`;
          await tx.notify(TRIGGERS_CHANNEL, row.value as string);
        }
        return result;
      }) as Promise<T>,
    );
  }

  insertTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.changeTriggers(async (tx) => {
      await tx`INSERT INTO triggers (id, token, config, secret_sealed, app_secret_sealed, armed_until, created_at, updated_at)
        VALUES (${c.id}, ${c.token}, ${JSON.stringify(c)}, ${trigger.secretSealed}, ${trigger.appSecretSealed}, ${trigger.armedUntil ?? null}, ${c.createdAt}, ${c.updatedAt})`;
    });
  }

  updateTrigger(trigger: StoredTrigger): Promise<void> {
    const c = trigger.config;
    return this.changeTriggers(async (tx) => {
      await tx`UPDATE triggers SET token = ${c.token}, config = ${JSON.stringify(c)}, secret_sealed = ${trigger.secretSealed},
        app_secret_sealed = ${trigger.appSecretSealed}, armed_until = ${trigger.armedUntil ?? null}, updated_at = ${c.updatedAt} WHERE id = ${c.id}`;
    });
  }

  deleteTrigger(id: string): Promise<boolean> {
    return this.changeTriggers(
      async (tx) => {
        const removed = (await tx`DELETE FROM triggers WHERE id = ${id}`).count > 0;
        if (!removed) return false;
        await tx`DELETE FROM runs WHERE trigger_id = ${id}`;
        await tx`DELETE FROM activity WHERE trigger_id = ${id}`;
        await tx`DELETE FROM dedup_keys WHERE trigger_id = ${id}`;
        return true;
      },
      (removed) => removed,
    );
  }

  triggersRevision(): Promise<number> {
    return this.connection.guard(async (sql) => Number((await sql`SELECT value FROM meta WHERE key = 'triggers_revision'`)[0]?.value ?? 0));
  }

  /** Calls `onChange` on every trigger change from any instance, and after each (re)subscription. */
  watchTriggers(onChange: () => void): Promise<TriggerWatch> {
    return this.connection.guard(async (sql) => {
      const subscription = await sql.listen(TRIGGERS_CHANNEL, () => onChange(), () => onChange());
      return { close: () => subscription.unlisten().catch(() => {}) };
    });
  }
}
