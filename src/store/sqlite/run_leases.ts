import type { Statement } from "bun:sqlite";
import type { ClaimedRun, RunFinish } from "../../records/run.ts";
import { jsonOrNull, runColumns, toRun, type RunRow } from "../rows.ts";
import { ORDERED_RUN_MAY_START, reservationAllows } from "../run_order.ts";
import type { DestinationState } from "../../records/destination_state.ts";
import { admit, afterStarts, stateKey, stateOf, type DestinationRulesOf } from "../destination_flow.ts";
import { takeInTurn, type DestinationQueue } from "../fair_claim.ts";
import type { SqliteDestinationStates } from "./destination_states.ts";
import type { RunLeases } from "../run_leases.ts";
import type { SqliteConnection } from "./connection.ts";

const RUN_COLUMNS = runColumns(true);

/** What a claim looks for, on SQLite (their query plans are checked by a test). */
export const CLAIM_SQL = {
  /**
   * Every (trigger, destination) with queued runs, by a skip over runs_destination_queue: one
   * index seek each — the next destination of the same trigger, else the first of the next
   * trigger. (A row-value `(trigger_id, destination) > (?, ?)` seeks on trigger_id only: it walked
   * every queued run of the last trigger, 3–4 ms a claim with 16,000 queued.)
   */
  queuedDestinations: `WITH RECURSIVE q(t, d) AS (
       SELECT * FROM (SELECT trigger_id, destination FROM runs WHERE status = 'queued' ORDER BY trigger_id, destination LIMIT 1)
       UNION ALL
       SELECT ${nextQueued("trigger_id")}, ${nextQueued("destination")} FROM q WHERE q.t IS NOT NULL
     )
     SELECT t AS trigger_id, d AS destination FROM q WHERE t IS NOT NULL`,
  /**
   * A destination's runs that may start, in order: (trigger, destination, newest run on disk,
   * owner, now, limit). `+r.seq`: the bound on seq must not pick the index — on
   * runs_by_trigger_status with a sort it took 5 ms at 8,000 queued, against 0.03 ms on
   * runs_destination_queue.
   */
  startable: `SELECT r.seq, r.lane FROM runs r WHERE r.status = 'queued' AND r.trigger_id = ? AND r.destination = ? AND +r.seq <= ?
       AND ${reservationAllows("?", "?")} AND ${ORDERED_RUN_MAY_START} ORDER BY r.lane, r.seq LIMIT ?`,
};

function nextQueued(column: string): string {
  return `coalesce(
    (SELECT r.${column} FROM runs r WHERE r.status = 'queued' AND r.trigger_id = q.t AND r.destination > q.d ORDER BY r.destination LIMIT 1),
    (SELECT r.${column} FROM runs r WHERE r.status = 'queued' AND r.trigger_id > q.t ORDER BY r.trigger_id, r.destination LIMIT 1))`;
}

/** A destination's state as admitting its runs left it (`changed`: a breaker went half-open). */
interface Admitted {
  state: DestinationState;
  changed: boolean;
}

/** Run claims and leases on SQLite: each rides the next grouped transaction. */
export class SqliteRunLeases implements RunLeases {
  private readonly queuedDestinations: Statement;
  private readonly runningByDestination: Statement;
  private readonly startable: Statement;
  private readonly take: Statement;
  private readonly destinationOfRun: Statement;
  private readonly claimLapsed: Statement;
  /** Which destination a claim starts its turns from (see takeInTurn). */
  private turn = 0;
  private readonly claimOne: Statement;
  private readonly renew: Statement;
  private readonly attempt: Statement;
  private readonly finish: Statement;
  private readonly release: Statement;
  private readonly requeueRunning: Statement;

  constructor(
    private readonly connection: SqliteConnection,
    private readonly states: SqliteDestinationStates,
  ) {
    this.queuedDestinations = connection.prepare(CLAIM_SQL.queuedDestinations);
    this.runningByDestination = connection.prepare(
      "SELECT trigger_id, destination, count(*) AS n FROM runs WHERE status = 'running' GROUP BY trigger_id, destination",
    );
    this.startable = connection.prepare(CLAIM_SQL.startable);
    this.take = connection.prepare(
      `UPDATE runs SET status = 'running', lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT value FROM json_each(?)) RETURNING seq, ${RUN_COLUMNS}`,
    );
    this.destinationOfRun = connection.prepare(
      "SELECT r.trigger_id, r.destination, (SELECT count(*) FROM runs x WHERE x.status = 'running' AND x.trigger_id = r.trigger_id AND x.destination = r.destination) AS running FROM runs r WHERE r.id = ?",
    );
    this.claimLapsed = connection.prepare(
      `UPDATE runs SET lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT seq FROM runs WHERE status = 'running' AND lease_until_ms < ? ORDER BY seq LIMIT ?) RETURNING seq, ${RUN_COLUMNS}`,
    );
    this.claimOne = connection.prepare(
      `UPDATE runs SET status = 'running', lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT r.seq FROM runs r WHERE r.id = ? AND r.status = 'queued' AND ${reservationAllows("?", "?")} AND ${ORDERED_RUN_MAY_START})
       RETURNING ${RUN_COLUMNS}`,
    );
    this.renew = connection.prepare(
      "UPDATE runs SET lease_until_ms = ? WHERE lease_owner = ? AND status = 'running' AND id IN (SELECT value FROM json_each(?))",
    );
    this.attempt = connection.prepare("UPDATE runs SET attempts = ?, result_json = ? WHERE id = ? AND lease_owner = ? AND status = 'running'");
    this.finish = connection.prepare(
      "UPDATE runs SET status = ?, result_json = ?, error = ?, attempts = ?, finished_at = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ? AND lease_owner = ? AND status = 'running'",
    );
    this.release = connection.prepare(
      `UPDATE runs SET status = 'queued', lease_owner = CASE WHEN ?1 IS NULL THEN NULL ELSE lease_owner END, lease_until_ms = ?1
       WHERE lease_owner = ?2 AND status = 'running' AND id IN (SELECT value FROM json_each(?3))`,
    );
    // Running runs, and queued ones reserved for the process before: their callers are gone.
    this.requeueRunning = connection.prepare(
      "UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL WHERE status = 'running' OR (status = 'queued' AND lease_owner IS NOT NULL)",
    );
  }

  claimRuns(owner: string, limit: number, leaseMs: number, now: Date, rulesOf?: DestinationRulesOf): Promise<ClaimedRun[]> {
    if (limit <= 0) return Promise.resolve([]);
    const until = now.getTime() + leaseMs;
    return this.connection.writeCommitted(() => {
      const { queues, admitted } = this.startableQueues(owner, limit, rulesOf, now.getTime());
      const taken = takeInTurn(queues, limit, this.turn++);
      this.countStarts(taken, admitted, rulesOf, now.getTime());
      const seqs = taken.map((r) => r.seq);
      const rows = seqs.length > 0 ? (this.take.all(owner, until, JSON.stringify(seqs)) as Array<RunRow & { seq: number }>) : [];
      if (rows.length < limit) rows.push(...(this.claimLapsed.all(owner, until, now.getTime(), limit - rows.length) as Array<RunRow & { seq: number }>));
      return rows.sort((a, b) => a.seq - b.seq).map((row) => toRun(row) as ClaimedRun);
    });
  }

  /**
   * Each destination's queue with the runs it may start now (at most `limit`), and the state each
   * would be in once one of its runs starts (a breaker whose time is up goes half-open).
   */
  private startableQueues(owner: string, limit: number, rulesOf: DestinationRulesOf | undefined, now: number) {
    const running = new Map(
      (this.runningByDestination.all() as Array<{ trigger_id: string; destination: string; n: number }>).map((r) => [
        stateKey(r.trigger_id, r.destination),
        r.n,
      ]),
    );
    const states = this.states.statesNow();
    const queues: Array<DestinationQueue<{ seq: number; lane: number; triggerId: string; destination: string }>> = [];
    const admitted = new Map<string, Admitted>();
    for (const { trigger_id, destination } of this.queuedDestinations.all() as Array<{ trigger_id: string; destination: string }>) {
      const state = stateOf(states, trigger_id, destination);
      const { room, next } = admit(state, rulesOf?.(trigger_id, destination) ?? null, running.get(stateKey(trigger_id, destination)) ?? 0, now);
      const take = Math.min(limit, room);
      if (take <= 0) continue;
      admitted.set(stateKey(trigger_id, destination), { state: next ?? state, changed: next !== null });
      const runs = (this.startable.all(trigger_id, destination, this.connection.runsOnDisk(), owner, now, take) as Array<{ seq: number; lane: number }>).map(
        (r) => ({
          ...r,
          triggerId: trigger_id,
          destination,
        }),
      );
      queues.push({ triggerId: trigger_id, destination, runs });
    }
    return { queues, admitted };
  }

  /** Records what starting these runs changes in their destinations' state: a half-open breaker, the rate limit's window. */
  private countStarts(
    taken: Array<{ triggerId: string; destination: string }>,
    admitted: Map<string, Admitted>,
    rulesOf: DestinationRulesOf | undefined,
    now: number,
  ): void {
    const started = new Map<string, number>();
    for (const run of taken) started.set(stateKey(run.triggerId, run.destination), (started.get(stateKey(run.triggerId, run.destination)) ?? 0) + 1);
    for (const [key, n] of started) {
      const { state, changed } = admitted.get(key)!;
      const counted = afterStarts(state, rulesOf?.(state.triggerId, state.destination) ?? null, n, now);
      if (counted || changed) this.states.save(counted ?? state);
    }
  }

  claimRun(id: string, owner: string, leaseMs: number, now: Date, rulesOf?: DestinationRulesOf): Promise<ClaimedRun | null> {
    return this.connection.writeCommitted(() => {
      const at = this.destinationOfRun.get(id) as { trigger_id: string; destination: string; running: number } | null;
      if (!at) return null;
      const state = stateOf(this.states.statesNow(), at.trigger_id, at.destination);
      const { room, next } = admit(state, rulesOf?.(at.trigger_id, at.destination) ?? null, at.running, now.getTime());
      if (room <= 0) return null;
      const row = this.claimOne.get(owner, now.getTime() + leaseMs, id, owner, now.getTime()) as RunRow | null;
      if (!row) return null;
      this.countStarts(
        [{ triggerId: at.trigger_id, destination: at.destination }],
        new Map([[stateKey(at.trigger_id, at.destination), { state: next ?? state, changed: next !== null }]]),
        rulesOf,
        now.getTime(),
      );
      return toRun(row) as ClaimedRun;
    });
  }

  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.connection.writeCommitted(() => {
      this.renew.run(now.getTime() + leaseMs, owner, JSON.stringify(ids));
    });
  }

  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean> {
    return this.connection.writeCommitted(() => this.attempt.run(attempts, jsonOrNull(result), id, owner).changes > 0);
  }

  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean> {
    return this.connection.writeCommitted(
      () => this.finish.run(finish.status, jsonOrNull(finish.result), finish.error, finish.attempts, finish.finishedAt, id, owner).changes > 0,
    );
  }

  releaseRuns(owner: string, ids: string[], reservedUntilMs?: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.connection.writeCommitted(() => {
      this.release.run(reservedUntilMs ?? null, owner, JSON.stringify(ids));
    });
  }

  requeueAbandonedRuns(_now: Date): Promise<number> {
    // One process owns the SQLite file: at start, nothing running is still running.
    return this.connection.write(() => this.requeueRunning.run().changes);
  }
}
