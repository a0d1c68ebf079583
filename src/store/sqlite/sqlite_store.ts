import { join } from "node:path";
import { composeRoles } from "../compose_roles.ts";
import type { Store } from "../store.ts";
import { SqliteAlerts } from "./alerts.ts";
import { SqliteConnection } from "./connection.ts";
import { DedupKeys } from "./dedup_keys.ts";
import type { Fingerprint } from "./dedup_index.ts";
import { SqliteHistory } from "./history.ts";
import { SqliteIngestLog } from "./ingest_log.ts";
import { SqliteMaintenance } from "./maintenance.ts";
import { SqliteMeta } from "./meta.ts";
import { openDatabase } from "./open_database.ts";
import { SqliteRunLeases } from "./run_leases.ts";
import { SqliteDestinationStates } from "./destination_states.ts";
import { SqliteTriggers } from "./triggers.ts";

export { SWEEP_SQL } from "./maintenance.ts";

export interface SqliteStoreOptions {
  /**
   * Benchmark knob (`INLET_GROUP_COMMIT=0`): false commits every write in its own transaction,
   * one fsync each, to measure what group commit saves. Never turn it off in production.
   */
  groupCommit?: boolean;
  /** Flushes the WAL file, given its descriptor (tests replace it to hold or fail a flush, or to see which file is flushed); default fdatasync. */
  flushWal?: (fd: number) => Promise<void>;
  /** Rows the retention sweep deletes per table per transaction (SWEEP_CHUNK; tests make it small); the event loop answers requests between them. */
  sweepChunk?: number;
  /** The dedup index's fingerprint of a key (tests make keys collide); default wyhash. */
  fingerprint?: Fingerprint;
}

/** The embedded store's database file in a data dir. */
export const sqlitePathIn = (dataDir: string) => join(dataDir, "inlet.db");

/**
 * The embedded store: one SQLite file in the data dir, WAL, grouped commits, each on disk before
 * any caller it covers is answered. The connection runs with `synchronous = NORMAL` — SQLite's
 * WAL setting that flushes at every checkpoint (the WAL before copying it, the database file
 * after, the WAL header before reuse) but not at each commit — and the store closes that gap
 * itself: after each batch's commit the WAL is flushed with fdatasync off the event loop
 * (WalSync), and the batch's callers are answered only then. The thread that answers requests
 * never waits for a commit's flush, and the next batch is built meanwhile. An in-memory
 * database (`:memory:`, tests) has nothing to flush.
 *
 * Dedup keys are rows keyed by expiry first, with an in-memory index of the live keys
 * (DedupKeys). The index is the one authority only while one process claims keys: `inlet serve`
 * holds the data dir's serve lock (serve_lock.ts) before it opens the store.
 *
 * Each role of the Store is its own module on the one shared connection (SqliteConnection); this
 * class composes them (composeRoles: each operation is its role module's, bound).
 */
// The class's instances have every Store operation: its constructor assigns them (composeRoles).
export interface SqliteStore extends Store {}
export class SqliteStore {
  /** Migration versions this open applied (for `inlet migrate`). */
  readonly applied: number[];

  constructor(path: string, options: SqliteStoreOptions = {}) {
    const opened = openDatabase(path, options.flushWal);
    this.applied = opened.applied;
    const keys = new DedupKeys(opened, options.fingerprint);
    const connection = new SqliteConnection(opened, keys, { groupCommit: options.groupCommit });
    const destinations = new SqliteDestinationStates(connection);
    Object.assign(
      this,
      { kind: "sqlite" },
      composeRoles({
        triggers: new SqliteTriggers(connection),
        ingest: new SqliteIngestLog(connection, keys),
        leases: new SqliteRunLeases(connection, destinations),
        destinations,
        alerts: new SqliteAlerts(connection),
        history: new SqliteHistory(connection),
        meta: new SqliteMeta(connection),
        maintenance: new SqliteMaintenance(connection, keys, options.sweepChunk),
      }),
    );
  }
}
