import { SQL } from "bun";
import { redactUrl } from "../../config/redact_url.ts";
import { SchemaTooNew, StoreUnavailable } from "../errors.ts";
import { composeRoles } from "../compose_roles.ts";
import type { Store } from "../store.ts";
import { PostgresAlerts } from "./alerts.ts";
import { describeConnectError } from "./connect_error.ts";
import { PostgresConnection } from "./connection.ts";
import { PostgresHistory } from "./history.ts";
import { PostgresIngestLog } from "./ingest_log.ts";
import { PostgresMaintenance } from "./maintenance.ts";
import { PostgresMeta } from "./meta.ts";
import { applyMigrations } from "./migrate.ts";
import { PostgresRunLeases } from "./run_leases.ts";
import { PostgresDestinationStates } from "./destination_states.ts";
import { PostgresTriggers } from "./triggers.ts";

export { TRIGGERS_CHANNEL } from "./triggers.ts";

export interface PostgresStoreOptions {
  /** Connections in the pool (one more is opened for LISTEN). */
  poolSize?: number;
  /** Seconds to wait for a connection before a request is answered 503. */
  connectionTimeout?: number;
  /** Benchmark knob, as for SQLite: false commits every request in its own statement. */
  groupCommit?: boolean;
  /**
   * How long one database call may take before its caller is answered 503 (default 10 s). A
   * server that stops answering (frozen, or the network drops packets) must not hold webhook
   * requests open: the connection timeout only covers opening a connection.
   */
  deadlineMs?: number;
  /** Rows the retention sweep deletes per table per statement (SWEEP_CHUNK; tests make it small). */
  sweepChunk?: number;
}

/**
 * The shared store: several `inlet serve` instances on one PostgreSQL database (Bun's built-in
 * SQL client). Ingest commits are grouped; runs are claimed with FOR UPDATE SKIP LOCKED under
 * leases; trigger changes are announced with NOTIFY. Each role of the Store is its own module on
 * the one shared pool (PostgresConnection); this class composes them (composeRoles).
 */
// The class's instances have every Store operation: its constructor assigns them (composeRoles).
export interface PostgresStore extends Store {}
export class PostgresStore {
  /** Migration versions this open applied (for `inlet migrate`). */
  applied: number[] = [];

  private constructor(sql: SQL, options: PostgresStoreOptions) {
    const connection = new PostgresConnection(sql, options.deadlineMs ?? 10_000);
    const ingest = new PostgresIngestLog(connection, options.groupCommit);
    Object.assign(
      this,
      { kind: "postgres" },
      composeRoles({
        triggers: new PostgresTriggers(connection),
        ingest,
        leases: new PostgresRunLeases(connection),
        destinations: new PostgresDestinationStates(connection),
        alerts: new PostgresAlerts(connection),
        history: new PostgresHistory(connection),
        meta: new PostgresMeta(connection),
        maintenance: new PostgresMaintenance(connection, ingest, options.sweepChunk),
      }),
    );
  }

  /** Connects, applies pending migrations (under an advisory lock) and returns the store. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const sql = new SQL(url, {
      max: options.poolSize ?? 10,
      connectionTimeout: options.connectionTimeout ?? 5,
      idleTimeout: 60,
    });
    const store = new PostgresStore(sql, options);
    const where = `PostgreSQL at ${redactUrl(url)}`;
    try {
      store.applied = await applyMigrations(sql, where);
    } catch (error) {
      await sql.close().catch(() => {});
      if (error instanceof SchemaTooNew) throw error;
      throw new StoreUnavailable(`${where}: ${describeConnectError(error, url)}`);
    }
    return store;
  }
}
