import type { ClaimedRun, RunFinish } from "../../records/run.ts";
import { jsonOrNull, runColumns, toRun, type RunRow } from "../rows.ts";
import { ORDERED_RUN_MAY_START } from "../run_order.ts";
import type { RunLeases } from "../run_leases.ts";
import type { PostgresConnection } from "./connection.ts";

const bySeq = (a: RunRow & { seq?: string }, b: RunRow & { seq?: string }) => (BigInt(a.seq!) < BigInt(b.seq!) ? -1 : 1);

const RUN_COLUMNS = `seq, ${runColumns(true)}`;

/** Run claims and leases on PostgreSQL, shared by instances: claims skip rows another instance holds (SKIP LOCKED). */
export class PostgresRunLeases implements RunLeases {
  constructor(private readonly connection: PostgresConnection) {}

  claimRuns(owner: string, limit: number, leaseMs: number, now: Date): Promise<ClaimedRun[]> {
    if (limit <= 0) return Promise.resolve([]);
    const until = now.getTime() + leaseMs;
    return this.connection.guard(async (sql) => {
      // Queued runs, and running runs whose lease lapsed (their instance is gone); rows another
      // instance is claiming right now are skipped, not waited for.
      const rows: RunRow[] = await sql.unsafe(
        `UPDATE runs SET status = 'running', lease_owner = $1, lease_until_ms = $2
         WHERE seq IN (
           SELECT r.seq FROM runs r
           WHERE (r.status = 'queued' AND ${ORDERED_RUN_MAY_START}) OR (r.status = 'running' AND r.lease_until_ms < $3)
           ORDER BY r.lane, r.seq LIMIT $4
           FOR UPDATE SKIP LOCKED)
         RETURNING ${RUN_COLUMNS}`,
        [owner, until, now.getTime(), limit],
      );
      return [...rows].sort(bySeq).map((row) => toRun(row) as ClaimedRun);
    });
  }

  claimRun(id: string, owner: string, leaseMs: number, now: Date): Promise<ClaimedRun | null> {
    return this.connection.guard(async (sql) => {
      const [row] = await sql.unsafe(
        `UPDATE runs SET status = 'running', lease_owner = $1, lease_until_ms = $2
         WHERE seq IN (SELECT r.seq FROM runs r WHERE r.id = $3 AND r.status = 'queued' AND ${ORDERED_RUN_MAY_START} FOR UPDATE SKIP LOCKED)
         RETURNING ${RUN_COLUMNS}`,
        [owner, now.getTime() + leaseMs, id],
      );
      return row ? (toRun(row) as ClaimedRun) : null;
    });
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
        (await sql`UPDATE runs SET attempts = ${attempts}, result_json = ${jsonOrNull(result)}
          WHERE id = ${id} AND lease_owner = ${owner} AND status = 'running'`).count > 0,
    );
  }

  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean> {
    return this.connection.guard(
      async (sql) =>
        (await sql`UPDATE runs SET status = ${finish.status}, result_json = ${jsonOrNull(finish.result)}, error = ${finish.error},
          attempts = ${finish.attempts}, finished_at = ${finish.finishedAt}, lease_owner = NULL, lease_until_ms = NULL
          WHERE id = ${id} AND lease_owner = ${owner} AND status = 'running'`).count > 0,
    );
  }

  releaseRuns(owner: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.connection.guard(async (sql) => {
      await sql`UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL
        WHERE lease_owner = ${owner} AND status = 'running' AND id = ANY(${sql.array(ids, "TEXT")})`;
    });
  }

  requeueAbandonedRuns(now: Date): Promise<number> {
    // Other instances may be executing runs right now: only lapsed leases are abandoned.
    return this.connection.guard(
      async (sql) =>
        (await sql`UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL
          WHERE status = 'running' AND (lease_until_ms IS NULL OR lease_until_ms < ${now.getTime()})`).count,
    );
  }
}
