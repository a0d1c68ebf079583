import type { SQL } from "bun";
import type { DestinationState } from "../../records/destination_state.ts";
import { afterAttempt, stateKey, stateOf, type BreakerRule } from "../destination_flow.ts";
import type { DestinationLoad, DestinationStates } from "../destination_states.ts";
import { DESTINATION_STATE_COLUMNS, destinationStateValues, toDestinationState, type DestinationStateRow } from "../rows.ts";
import type { PostgresConnection } from "./connection.ts";

/** Destinations' pause, breaker and rate-limit state on PostgreSQL, shared by every instance. */
export class PostgresDestinationStates implements DestinationStates {
  constructor(private readonly connection: PostgresConnection) {}

  destinationStates(triggerId: string): Promise<DestinationState[]> {
    return this.connection.guard(async (sql) =>
      ((await sql.unsafe(`SELECT ${DESTINATION_STATE_COLUMNS} FROM destination_state WHERE trigger_id = $1`, [triggerId])) as DestinationStateRow[]).map(
        toDestinationState,
      ),
    );
  }

  allDestinationStates(): Promise<DestinationState[]> {
    return this.connection.guard(async (sql) => statesNow(sql).then((states) => [...states.values()]));
  }

  setPaused(triggerId: string, destination: string, paused: boolean): Promise<DestinationState> {
    return this.change(triggerId, destination, (state) => ({ ...state, paused }));
  }

  recordDelivery(triggerId: string, destination: string, rule: BreakerRule, ok: boolean, now: Date): Promise<DestinationState> {
    return this.change(triggerId, destination, (state) => afterAttempt(state, rule, ok, now.getTime()));
  }

  destinationLoads(triggerId?: string): Promise<DestinationLoad[]> {
    return this.connection.guard(async (sql) => {
      const rows = await sql.unsafe(
        `SELECT trigger_id, destination, count(*) FILTER (WHERE status = 'queued') AS queued, count(*) FILTER (WHERE status = 'running') AS running
         FROM runs WHERE status IN ('queued', 'running') ${triggerId === undefined ? "" : "AND trigger_id = $1"} GROUP BY trigger_id, destination`,
        triggerId === undefined ? [] : [triggerId],
      );
      return rows.map((r: { trigger_id: string; destination: string; queued: string; running: string }) => ({
        triggerId: r.trigger_id,
        destination: r.destination,
        queued: Number(r.queued),
        running: Number(r.running),
      }));
    });
  }

  /** Reads, changes and writes one state in a transaction, the row locked (instances may change it at once). */
  private change(triggerId: string, destination: string, next: (state: DestinationState) => DestinationState): Promise<DestinationState> {
    return this.connection.guard((sql) =>
      sql.begin(async (tx) => {
        await tx`INSERT INTO destination_state (trigger_id, destination) VALUES (${triggerId}, ${destination}) ON CONFLICT DO NOTHING`;
        const [row] = await tx.unsafe(`SELECT ${DESTINATION_STATE_COLUMNS} FROM destination_state WHERE trigger_id = $1 AND destination = $2 FOR UPDATE`, [
          triggerId,
          destination,
        ]);
        return saveState(tx, next(row ? toDestinationState(row) : stateOf(new Map(), triggerId, destination)));
      }),
    );
  }
}

/** Every state, by (trigger, destination). */
export async function statesNow(sql: SQL): Promise<Map<string, DestinationState>> {
  const rows = (await sql.unsafe(`SELECT ${DESTINATION_STATE_COLUMNS} FROM destination_state`)) as DestinationStateRow[];
  return new Map(rows.map((row) => [stateKey(row.trigger_id, row.destination), toDestinationState(row)]));
}

/** Writes a state (inside the caller's transaction). */
export async function saveState(sql: SQL, state: DestinationState): Promise<DestinationState> {
  await sql.unsafe(
    `INSERT INTO destination_state (${DESTINATION_STATE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (trigger_id, destination) DO UPDATE SET paused = excluded.paused, breaker = excluded.breaker, failures = excluded.failures,
       open_until_ms = excluded.open_until_ms, open_ms = excluded.open_ms, opened_at_ms = excluded.opened_at_ms,
       last_start_ms = excluded.last_start_ms, window_count = excluded.window_count`,
    [...destinationStateValues(state)],
  );
  return state;
}
