import type { Statement } from "bun:sqlite";
import type { DestinationState } from "../../records/destination_state.ts";
import { afterAttempt, stateOf, stateKey, type BreakerRule } from "../destination_flow.ts";
import type { DestinationLoad, DestinationStates } from "../destination_states.ts";
import { DESTINATION_STATE_COLUMNS, destinationStateValues, toDestinationState, type DestinationStateRow } from "../rows.ts";
import type { SqliteConnection } from "./connection.ts";

/** Destinations' pause, breaker and rate-limit state on SQLite; writes ride the grouped transaction. */
export class SqliteDestinationStates implements DestinationStates {
  private readonly ofTrigger: Statement;
  private readonly all: Statement;
  private readonly one: Statement;
  private readonly put: Statement;
  private readonly loads: Statement;
  private readonly allLoads: Statement;

  constructor(private readonly connection: SqliteConnection) {
    this.ofTrigger = connection.prepare(`SELECT ${DESTINATION_STATE_COLUMNS} FROM destination_state WHERE trigger_id = ?`);
    this.all = connection.prepare(`SELECT ${DESTINATION_STATE_COLUMNS} FROM destination_state`);
    this.one = connection.prepare(`SELECT ${DESTINATION_STATE_COLUMNS} FROM destination_state WHERE trigger_id = ? AND destination = ?`);
    this.put = connection.prepare(`INSERT OR REPLACE INTO destination_state (${DESTINATION_STATE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.loads = connection.prepare(
      "SELECT trigger_id, destination, sum(status = 'queued') AS queued, sum(status = 'running') AS running FROM runs WHERE trigger_id = ? AND status IN ('queued', 'running') GROUP BY destination",
    );
    this.allLoads = connection.prepare(
      "SELECT trigger_id, destination, sum(status = 'queued') AS queued, sum(status = 'running') AS running FROM runs WHERE status IN ('queued', 'running') GROUP BY trigger_id, destination",
    );
  }

  destinationStates(triggerId: string): Promise<DestinationState[]> {
    return this.connection.guard(() => (this.ofTrigger.all(triggerId) as DestinationStateRow[]).map(toDestinationState));
  }

  allDestinationStates(): Promise<DestinationState[]> {
    return this.connection.guard(() => (this.all.all() as DestinationStateRow[]).map(toDestinationState));
  }

  setPaused(triggerId: string, destination: string, paused: boolean): Promise<DestinationState> {
    return this.connection.write(() => this.save({ ...this.current(triggerId, destination), paused }));
  }

  recordDelivery(triggerId: string, destination: string, rule: BreakerRule, ok: boolean, now: Date): Promise<DestinationState> {
    return this.connection.write(() => this.save(afterAttempt(this.current(triggerId, destination), rule, ok, now.getTime())));
  }

  destinationLoads(triggerId?: string): Promise<DestinationLoad[]> {
    return this.connection.guard(() =>
      (
        (triggerId === undefined ? this.allLoads.all() : this.loads.all(triggerId)) as Array<{
          trigger_id: string;
          destination: string;
          queued: number;
          running: number;
        }>
      ).map((r) => ({
        triggerId: r.trigger_id,
        destination: r.destination,
        queued: Number(r.queued),
        running: Number(r.running),
      })),
    );
  }

  /** Every state, by (trigger, destination), for a claim inside the same transaction. */
  statesNow(): Map<string, DestinationState> {
    return new Map((this.all.all() as DestinationStateRow[]).map((row) => [stateKey(row.trigger_id, row.destination), toDestinationState(row)]));
  }

  /** Writes a state (inside the caller's transaction). */
  save(state: DestinationState): DestinationState {
    this.put.run(...destinationStateValues({ ...state, paused: (state.paused ? 1 : 0) as unknown as boolean }));
    return state;
  }

  private current(triggerId: string, destination: string): DestinationState {
    const row = this.one.get(triggerId, destination) as DestinationStateRow | null;
    return row ? toDestinationState(row) : stateOf(new Map(), triggerId, destination);
  }
}
