import type { ClaimedRun, RunFinish } from "../../records/run.ts";
import { jsonOrNull, runColumns, toRun, type RunRow } from "../rows.ts";
import { ORDERED_RUN_MAY_START, reservationAllows } from "../run_order.ts";
import type { SQL } from "bun";
import type { DestinationState } from "../../records/destination_state.ts";
import { admit, afterStarts, stateKey, stateOf, type DestinationRulesOf } from "../destination_flow.ts";
import { takeInTurn, type DestinationQueue } from "../fair_claim.ts";
import { saveState, statesNow } from "./destination_states.ts";
import type { RunLeases } from "../run_leases.ts";
import type { PostgresConnection } from "./connection.ts";

const bySeq = (a: RunRow & { seq?: string }, b: RunRow & { seq?: string }) => (BigInt(a.seq!) < BigInt(b.seq!) ? -1 : 1);

const RUN_COLUMNS = `seq, ${runColumns(true)}`;

/** The advisory lock claims take (a constant: "inlet:claim" as a 64-bit number). */
const CLAIM_LOCK = 0x696e6c6574636c61n;

/** A destination's state as admitting its runs left it (`changed`: a breaker went half-open). */
interface Admitted {
  state: DestinationState;
  changed: boolean;
}

type Startable = { seq: string; lane: number; triggerId: string; destination: string };

/**
 * Each destination's queue with the runs it may start now (at most `limit`): its pause, breaker,
 * concurrency and rate limit decide (destination_flow.ts); and the state each would be in once
 * one of its runs starts.
 */
async function startableQueues(tx: SQL, owner: string, limit: number, rulesOf: DestinationRulesOf | undefined, now: number) {
  const running = new Map<string, number>(
    (await tx`SELECT trigger_id, destination, count(*) AS n FROM runs WHERE status = 'running' GROUP BY trigger_id, destination`).map(
      (r: { trigger_id: string; destination: string; n: string }) => [stateKey(r.trigger_id, r.destination), Number(r.n)],
    ),
  );
  const states = await statesNow(tx);
  // Every (trigger, destination) with queued runs, by a skip over runs_destination_queue: one index seek each.
  const destinations: Array<{ trigger_id: string; destination: string }> = await tx`
    WITH RECURSIVE q AS (
      (SELECT trigger_id, destination FROM runs WHERE status = 'queued' ORDER BY trigger_id, destination LIMIT 1)
      UNION ALL
      SELECT n.trigger_id, n.destination FROM q, LATERAL (
        SELECT r.trigger_id, r.destination FROM runs r WHERE r.status = 'queued' AND (r.trigger_id, r.destination) > (q.trigger_id, q.destination)
        ORDER BY r.trigger_id, r.destination LIMIT 1) n
    )
    SELECT trigger_id, destination FROM q`;
  const queues: Array<DestinationQueue<Startable>> = [];
  const admitted = new Map<string, Admitted>();
  for (const { trigger_id, destination } of destinations) {
    const state = stateOf(states, trigger_id, destination);
    const { room, next } = admit(state, rulesOf?.(trigger_id, destination) ?? null, running.get(stateKey(trigger_id, destination)) ?? 0, now);
    const take = Math.min(limit, room);
    if (take <= 0) continue;
    admitted.set(stateKey(trigger_id, destination), { state: next ?? state, changed: next !== null });
    const runs = await tx.unsafe(
      `SELECT r.seq, r.lane FROM runs r WHERE r.status = 'queued' AND r.trigger_id = $1 AND r.destination = $2 AND ${reservationAllows("$4", "$5")}
         AND ${ORDERED_RUN_MAY_START}
       ORDER BY r.lane, r.seq LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [trigger_id, destination, take, owner, now],
    );
    queues.push({
      triggerId: trigger_id,
      destination,
      runs: (runs as Array<{ seq: string; lane: number }>).map((r) => ({ ...r, triggerId: trigger_id, destination })),
    });
  }
  return { queues, admitted };
}

/** Records what starting these runs changes in their destinations' state: a half-open breaker, the rate limit's window. */
async function countStarts(
  tx: SQL,
  taken: Array<{ triggerId: string; destination: string }>,
  admitted: Map<string, Admitted>,
  rulesOf: DestinationRulesOf | undefined,
  now: number,
) {
  const started = new Map<string, number>();
  for (const run of taken) started.set(stateKey(run.triggerId, run.destination), (started.get(stateKey(run.triggerId, run.destination)) ?? 0) + 1);
  for (const [key, n] of started) {
    const { state, changed } = admitted.get(key)!;
    const counted = afterStarts(state, rulesOf?.(state.triggerId, state.destination) ?? null, n, now);
    if (counted || changed) await saveState(tx, counted ?? state);
  }
}

/** Run claims and leases on PostgreSQL, shared by instances: claims skip rows another instance holds (SKIP LOCKED). */
export class PostgresRunLeases implements RunLeases {
  /** Which destination a claim starts its turns from (see takeInTurn). */
  private turn = 0;

  constructor(private readonly connection: PostgresConnection) {}

  claimRuns(owner: string, limit: number, leaseMs: number, now: Date, rulesOf?: DestinationRulesOf): Promise<ClaimedRun[]> {
    if (limit <= 0) return Promise.resolve([]);
    const until = now.getTime() + leaseMs;
    return this.connection.guard((sql) =>
      sql.begin(async (tx) => {
        // One claim at a time across instances: what a destination has running is counted and
        // added to in the same transaction, so its limit holds whichever instance claims.
        await tx`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`;
        const { queues, admitted } = await startableQueues(tx, owner, limit, rulesOf, now.getTime());
        const taken = takeInTurn(queues, limit, this.turn++);
        await countStarts(tx, taken, admitted, rulesOf, now.getTime());
        const seqs = taken.map((r) => r.seq);
        const rows: RunRow[] = seqs.length
          ? await tx.unsafe(`UPDATE runs SET status = 'running', lease_owner = $1, lease_until_ms = $2 WHERE seq = ANY($3) RETURNING ${RUN_COLUMNS}`, [
              owner,
              until,
              tx.array(seqs, "INT8"),
            ])
          : [];
        if (rows.length < limit) {
          // Running runs whose lease lapsed (their instance is gone); rows another instance holds are skipped.
          rows.push(
            ...(await tx.unsafe(
              `UPDATE runs SET lease_owner = $1, lease_until_ms = $2
               WHERE seq IN (SELECT seq FROM runs WHERE status = 'running' AND lease_until_ms < $3 ORDER BY seq LIMIT $4 FOR UPDATE SKIP LOCKED)
               RETURNING ${RUN_COLUMNS}`,
              [owner, until, now.getTime(), limit - rows.length],
            )),
          );
        }
        return [...rows].sort(bySeq).map((row) => toRun(row) as ClaimedRun);
      }),
    );
  }

  claimRun(id: string, owner: string, leaseMs: number, now: Date, rulesOf?: DestinationRulesOf): Promise<ClaimedRun | null> {
    return this.connection.guard((sql) =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`;
        const [at] = await tx`SELECT r.trigger_id, r.destination,
            (SELECT count(*) FROM runs x WHERE x.status = 'running' AND x.trigger_id = r.trigger_id AND x.destination = r.destination) AS running
          FROM runs r WHERE r.id = ${id}`;
        if (!at) return null;
        const state = stateOf(await statesNow(tx), at.trigger_id, at.destination);
        const { room, next } = admit(state, rulesOf?.(at.trigger_id, at.destination) ?? null, Number(at.running), now.getTime());
        if (room <= 0) return null;
        const [row] = await tx.unsafe(
          `UPDATE runs SET status = 'running', lease_owner = $1, lease_until_ms = $2
           WHERE seq IN (SELECT r.seq FROM runs r WHERE r.id = $3 AND r.status = 'queued' AND ${reservationAllows("$1", "$4")} AND ${ORDERED_RUN_MAY_START}
             FOR UPDATE SKIP LOCKED)
           RETURNING ${RUN_COLUMNS}`,
          [owner, now.getTime() + leaseMs, id, now.getTime()],
        );
        if (!row) return null;
        const admitted = new Map([[stateKey(at.trigger_id, at.destination), { state: next ?? state, changed: next !== null }]]);
        await countStarts(tx, [{ triggerId: at.trigger_id, destination: at.destination }], admitted, rulesOf, now.getTime());
        return toRun(row) as ClaimedRun;
      }),
    );
  }

  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.connection.guard(async (sql) => {
      await sql`UPDATE runs SET lease_until_ms = ${now.getTime() + leaseMs}
        WHERE lease_owner = ${owner} AND status = 'running' AND id = ANY(${sql.array(ids, "TEXT")})`;
    });
  }

  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean> {
    return this.connection.guard(
      async (sql) =>
        (
          await sql`UPDATE runs SET attempts = ${attempts}, result_json = ${jsonOrNull(result)}
          WHERE id = ${id} AND lease_owner = ${owner} AND status = 'running'`
        ).count > 0,
    );
  }

  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean> {
    return this.connection.guard(
      async (sql) =>
        (
          await sql`UPDATE runs SET status = ${finish.status}, result_json = ${jsonOrNull(finish.result)}, error = ${finish.error},
          attempts = ${finish.attempts}, finished_at = ${finish.finishedAt}, lease_owner = NULL, lease_until_ms = NULL
          WHERE id = ${id} AND lease_owner = ${owner} AND status = 'running'`
        ).count > 0,
    );
  }

  releaseRuns(owner: string, ids: string[], reservedUntilMs?: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    const until = reservedUntilMs ?? null;
    return this.connection.guard(async (sql) => {
      await sql`UPDATE runs SET status = 'queued', lease_owner = ${until === null ? null : owner}, lease_until_ms = ${until}
        WHERE lease_owner = ${owner} AND status = 'running' AND id = ANY(${sql.array(ids, "TEXT")})`;
    });
  }

  requeueAbandonedRuns(now: Date): Promise<number> {
    // Other instances may be executing runs right now: only lapsed leases are abandoned.
    return this.connection.guard(
      async (sql) =>
        (
          await sql`UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL
          WHERE status = 'running' AND (lease_until_ms IS NULL OR lease_until_ms < ${now.getTime()})`
        ).count,
    );
  }
}
