import type { Statement } from "bun:sqlite";
import type { ClaimedRun, RunFinish } from "../../records/run.ts";
import { jsonOrNull, runColumns, toRun, type RunRow } from "../rows.ts";
import { ORDERED_RUN_MAY_START } from "../run_order.ts";
import type { RunLeases } from "../run_leases.ts";
import type { SqliteConnection } from "./connection.ts";

const RUN_COLUMNS = runColumns(true);

/** Run claims and leases on SQLite: each rides the next grouped transaction. */
export class SqliteRunLeases implements RunLeases {
  private readonly claimQueued: Statement;
  private readonly claimLapsed: Statement;
  private readonly claimOne: Statement;
  private readonly renew: Statement;
  private readonly attempt: Statement;
  private readonly finish: Statement;
  private readonly release: Statement;
  private readonly requeueRunning: Statement;

  constructor(private readonly connection: SqliteConnection) {
    this.claimQueued = connection.prepare(
      `UPDATE runs SET status = 'running', lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT r.seq FROM runs r WHERE r.status = 'queued' AND ${ORDERED_RUN_MAY_START} ORDER BY r.lane, r.seq LIMIT ?) RETURNING seq, ${RUN_COLUMNS}`,
    );
    this.claimLapsed = connection.prepare(
      `UPDATE runs SET lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT seq FROM runs WHERE status = 'running' AND lease_until_ms < ? ORDER BY seq LIMIT ?) RETURNING seq, ${RUN_COLUMNS}`,
    );
    this.claimOne = connection.prepare(
      `UPDATE runs SET status = 'running', lease_owner = ?, lease_until_ms = ? WHERE seq IN (SELECT r.seq FROM runs r WHERE r.id = ? AND r.status = 'queued' AND ${ORDERED_RUN_MAY_START}) RETURNING ${RUN_COLUMNS}`,
    );
    this.renew = connection.prepare("UPDATE runs SET lease_until_ms = ? WHERE lease_owner = ? AND status = 'running' AND id IN (SELECT value FROM json_each(?))");
    this.attempt = connection.prepare("UPDATE runs SET attempts = ?, result_json = ? WHERE id = ? AND lease_owner = ? AND status = 'running'");
    this.finish = connection.prepare(
      "UPDATE runs SET status = ?, result_json = ?, error = ?, attempts = ?, finished_at = ?, lease_owner = NULL, lease_until_ms = NULL WHERE id = ? AND lease_owner = ? AND status = 'running'",
    );
    this.release = connection.prepare(
      "UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL WHERE lease_owner = ? AND status = 'running' AND id IN (SELECT value FROM json_each(?))",
    );
    this.requeueRunning = connection.prepare("UPDATE runs SET status = 'queued', lease_owner = NULL, lease_until_ms = NULL WHERE status = 'running'");
  }

  claimRuns(owner: string, limit: number, leaseMs: number, now: Date): Promise<ClaimedRun[]> {
    if (limit <= 0) return Promise.resolve([]);
    const until = now.getTime() + leaseMs;
    return this.connection.write(() => {
      const rows = this.claimQueued.all(owner, until, limit) as Array<RunRow & { seq: number }>;
      if (rows.length < limit) rows.push(...(this.claimLapsed.all(owner, until, now.getTime(), limit - rows.length) as Array<RunRow & { seq: number }>));
      return rows.sort((a, b) => a.seq - b.seq).map((row) => toRun(row) as ClaimedRun);
    });
  }

  claimRun(id: string, owner: string, leaseMs: number, now: Date): Promise<ClaimedRun | null> {
    return this.connection.write(() => {
      const row = this.claimOne.get(owner, now.getTime() + leaseMs, id) as RunRow | null;
      return row ? (toRun(row) as ClaimedRun) : null;
    });
  }

  renewLeases(owner: string, ids: string[], leaseMs: number, now: Date): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.connection.write(() => {
      this.renew.run(now.getTime() + leaseMs, owner, JSON.stringify(ids));
    });
  }

  recordAttempt(id: string, owner: string, attempts: number, result: unknown): Promise<boolean> {
    return this.connection.write(() => this.attempt.run(attempts, jsonOrNull(result), id, owner).changes > 0);
  }

  finishRun(id: string, owner: string, finish: RunFinish): Promise<boolean> {
    return this.connection.write(
      () => this.finish.run(finish.status, jsonOrNull(finish.result), finish.error, finish.attempts, finish.finishedAt, id, owner).changes > 0,
    );
  }

  releaseRuns(owner: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.connection.write(() => {
      this.release.run(owner, JSON.stringify(ids));
    });
  }

  requeueAbandonedRuns(_now: Date): Promise<number> {
    // One process owns the SQLite file: at start, nothing running is still running.
    return this.connection.write(() => this.requeueRunning.run().changes);
  }
}
