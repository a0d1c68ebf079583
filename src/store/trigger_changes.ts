import { destinationsOf } from "../records/destination.ts";
import type { StoredTrigger } from "./trigger_store.ts";

/**
 * What one apply of a config file writes (README "Triggers as code"): one transaction on either
 * store, so that an error while writing — a token already taken — changes nothing.
 */
export interface TriggerChanges {
  inserts: StoredTrigger[];
  /** Whole triggers, replacing the stored ones of the same id (a changed token included). */
  updates: StoredTrigger[];
  /** Trigger ids, removed with their runs, Activity, dedup keys and destinations' state. */
  deletes: string[];
  /**
   * The triggers' revision the changes were planned against: when another change has moved it
   * since, nothing is written (the caller plans again), so that two processes applying the same
   * file never both create a trigger.
   */
  expectedRevision: number;
}

/** Where a trigger's token waits while tokens move between triggers: no real token has a `~`. */
export const parkedToken = (id: string) => `~${id}`;

/** A trigger's destination names as a JSON array, for the SQL that drops the state of removed ones. */
export function destinationNames(config: StoredTrigger["config"]): string {
  return JSON.stringify(destinationsOf(config).map((d) => d.name));
}
