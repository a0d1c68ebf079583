import type { SQL } from "bun";
import { TokenTaken } from "../errors.ts";
import { toTrigger } from "../rows.ts";
import { destinationNames, parkedToken, type TriggerChanges } from "../trigger_changes.ts";
import type { StoredTrigger, TriggerStore, TriggerWatch } from "../trigger_store.ts";
import type { PostgresConnection } from "./connection.ts";

/** The channel a trigger change is announced on (payload: the new revision). */
export const TRIGGERS_CHANNEL = "inlet_triggers";

/** The triggers on PostgreSQL: every change bumps the revision and is announced with NOTIFY, in one transaction. */
export class PostgresTriggers implements TriggerStore {
  constructor(private readonly connection: PostgresConnection) {}

  listTriggers(): Promise<StoredTrigger[]> {
    return this.connection.guard(async (sql) =>
      (await sql`SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers ORDER BY seq DESC`).map(toTrigger),
    );
  }

  getTrigger(id: string): Promise<StoredTrigger | null> {
    return this.connection.guard(async (sql) => {
      const [row] = await sql`SELECT config, secret_sealed, app_secret_sealed, armed_until FROM triggers WHERE id = ${id}`;
      return row ? toTrigger(row) : null;
    });
  }

  /** Runs `change` and bumps the revision in one transaction; NOTIFY goes out on commit. */
  private changeTriggers<T>(change: (tx: SQL) => Promise<T>, changed: (result: T) => boolean = () => true): Promise<T> {
    return this.connection.guard(
      (sql) =>
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
    return this.changeTriggers((tx) => insertRow(tx, trigger));
  }

  updateTrigger(trigger: StoredTrigger): Promise<void> {
    return this.changeTriggers((tx) => updateRow(tx, trigger));
  }

  deleteTrigger(id: string): Promise<boolean> {
    return this.changeTriggers(
      (tx) => deleteRows(tx, id),
      (removed) => removed,
    );
  }

  applyTriggers(changes: TriggerChanges): Promise<boolean> {
    const writes = changes.deletes.length + changes.updates.length + changes.inserts.length;
    return this.changeTriggers(
      async (tx) => {
        // The revision's row locked: a second apply waits for this one to commit, then sees the
        // revision moved and writes nothing (every instance watching a file applies it once).
        const [row] = await tx`SELECT value FROM meta WHERE key = 'triggers_revision' FOR UPDATE`;
        if (Number(row?.value ?? 0) !== changes.expectedRevision) return false;
        for (const id of changes.deletes) await deleteRows(tx, id);
        // Tokens may move between triggers (two swapping pinned tokens): each updated trigger lets
        // go of its own first, so the unique index never sees one token twice mid-way.
        for (const trigger of changes.updates) await tx`UPDATE triggers SET token = ${parkedToken(trigger.config.id)} WHERE id = ${trigger.config.id}`;
        for (const trigger of changes.updates) await tokenChecked(trigger, updateRow(tx, trigger));
        for (const trigger of changes.inserts) await tokenChecked(trigger, insertRow(tx, trigger));
        return true;
      },
      (applied) => applied && writes > 0,
    );
  }

  triggersRevision(): Promise<number> {
    return this.connection.guard(async (sql) => Number((await sql`SELECT value FROM meta WHERE key = 'triggers_revision'`)[0]?.value ?? 0));
  }

  /** Calls `onChange` on every trigger change from any instance, and after each (re)subscription. */
  watchTriggers(onChange: () => void): Promise<TriggerWatch> {
    return this.connection.guard(async (sql) => {
      const subscription = await sql.listen(
        TRIGGERS_CHANNEL,
        () => onChange(),
        () => onChange(),
      );
      return { close: () => subscription.unlisten().catch(() => {}) };
    });
  }
}

async function insertRow(tx: SQL, trigger: StoredTrigger): Promise<void> {
  const c = trigger.config;
  await tx`INSERT INTO triggers (id, token, config, secret_sealed, app_secret_sealed, armed_until, created_at, updated_at)
    VALUES (${c.id}, ${c.token}, ${JSON.stringify(c)}, ${trigger.secretSealed}, ${trigger.appSecretSealed}, ${trigger.armedUntil ?? null}, ${c.createdAt}, ${c.updatedAt})`;
}

async function updateRow(tx: SQL, trigger: StoredTrigger): Promise<void> {
  const c = trigger.config;
  await tx`UPDATE triggers SET token = ${c.token}, config = ${JSON.stringify(c)}, secret_sealed = ${trigger.secretSealed},
    app_secret_sealed = ${trigger.appSecretSealed}, armed_until = ${trigger.armedUntil ?? null}, updated_at = ${c.updatedAt} WHERE id = ${c.id}`;
  // A destination removed takes its state (pause, breaker) with it: re-added, it starts afresh.
  await tx`DELETE FROM destination_state WHERE trigger_id = ${c.id} AND destination NOT IN (SELECT jsonb_array_elements_text(CAST(${destinationNames(c)}::text AS jsonb)))`;
}

async function deleteRows(tx: SQL, id: string): Promise<boolean> {
  const removed = (await tx`DELETE FROM triggers WHERE id = ${id}`).count > 0;
  if (!removed) return false;
  await tx`DELETE FROM runs WHERE trigger_id = ${id}`;
  await tx`DELETE FROM activity WHERE trigger_id = ${id}`;
  await tx`DELETE FROM dedup_keys WHERE trigger_id = ${id}`;
  await tx`DELETE FROM destination_state WHERE trigger_id = ${id}`;
  return true;
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = "23505";

/** A trigger's write; the unique index refusing its token is TokenTaken (the transaction rolls back). */
async function tokenChecked(trigger: StoredTrigger, write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    const { errno, constraint } = error as { errno?: string; constraint?: string };
    if (errno === UNIQUE_VIOLATION && (constraint === undefined || /token/.test(constraint))) throw new TokenTaken(trigger.config.name);
    throw error;
  }
}
