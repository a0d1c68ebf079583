import type { TriggerConfig } from "../records/trigger.ts";
import type { TriggerChanges } from "./trigger_changes.ts";

/** A trigger as stored: configuration plus sealed secrets. */
export interface StoredTrigger {
  config: TriggerConfig;
  /** AES-GCM sealed generated secret, or null. */
  secretSealed: string | null;
  /** AES-GCM sealed app secret, or null. */
  appSecretSealed: string | null;
  /**
   * Until when a handshake may hand the trigger a new secret (trust on first use: README
   * "Trust on first use"), ISO; absent or null: not armed.
   */
  armedUntil?: string | null;
}

export interface TriggerWatch {
  close(): Promise<void>;
}

/** The triggers, and how every process learns that one changed (the trigger service's part of the store). */
export interface TriggerStore {
  listTriggers(): Promise<StoredTrigger[]>;
  getTrigger(id: string): Promise<StoredTrigger | null>;
  insertTrigger(trigger: StoredTrigger): Promise<void>;
  updateTrigger(trigger: StoredTrigger): Promise<void>;
  /** Removes the trigger with its runs, Activity and dedup keys; false when unknown. */
  deleteTrigger(id: string): Promise<boolean>;
  /**
   * Deletes, updates and inserts in one transaction (deletions first; tokens may move between
   * the triggers written), and moves the revision once. False, with nothing written, when the
   * revision is no longer `expectedRevision`; TokenTaken, with nothing written, when a token is
   * another trigger's.
   */
  applyTriggers(changes: TriggerChanges): Promise<boolean>;
  /** Increases on every trigger change, from any process: instances poll it to reload. */
  triggersRevision(): Promise<number>;
  /**
   * Calls `onChange` as soon as any instance changes a trigger (PostgreSQL LISTEN/NOTIFY), and
   * after every reconnection; absent where polling the revision is enough (SQLite).
   */
  watchTriggers?(onChange: () => void): Promise<TriggerWatch>;
}
