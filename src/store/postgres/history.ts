import { parseJson } from "../../json/index.ts";
import type { SQL } from "bun";
import type { ActivityRecord } from "../../records/activity.ts";
import type { ReplayCandidate, ReplayQuery } from "../../records/ingest.ts";
import type { RunRecord } from "../../records/run.ts";
import { UnknownCursor } from "../errors.ts";
import type { History, Page } from "../history.ts";
import { replayCountSql, replayPageSql } from "../replay_where.ts";
import { ACTIVITY_COLUMNS, runColumns, toActivity, toRun, type RunRow } from "../rows.ts";
import { RUNS_WAITING_ON_KEY } from "../run_order.ts";
import type { PostgresConnection } from "./connection.ts";

/** Runs and Activity read back on PostgreSQL, newest first, paged by the id of the last row seen. */
export class PostgresHistory implements History {
  constructor(private readonly connection: PostgresConnection) {}

  private async cursor(sql: SQL, table: "runs" | "activity", before: string | undefined): Promise<string> {
    if (before === undefined) return "9223372036854775807";
    const [row] = table === "runs" ? await sql`SELECT seq FROM runs WHERE id = ${before}` : await sql`SELECT seq FROM activity WHERE id = ${before}`;
    if (!row) throw new UnknownCursor(`before: no ${table === "runs" ? "run" : "Activity row"} with id ${JSON.stringify(before)}`);
    return String(row.seq);
  }

  listActivity(triggerId: string, page: Page): Promise<ActivityRecord[]> {
    return this.connection.guard(async (sql) => {
      const seq = await this.cursor(sql, "activity", page.before);
      const rows = await sql.unsafe(`SELECT ${ACTIVITY_COLUMNS} FROM activity WHERE trigger_id = $1 AND seq < $2::bigint ORDER BY seq DESC LIMIT $3`, [
        triggerId,
        seq,
        page.limit,
      ]);
      return rows.map(toActivity);
    });
  }

  getActivity(id: string): Promise<ActivityRecord | null> {
    return this.connection.guard(async (sql) => {
      const [row] = await sql.unsafe(`SELECT ${ACTIVITY_COLUMNS}, request_json FROM activity WHERE id = $1`, [id]);
      return row ? toActivity(row) : null;
    });
  }

  runsWaitingOnKey(): Promise<Record<string, number>> {
    return this.connection.guard(async (sql) => {
      const rows: Array<{ trigger_id: string; n: string }> = await sql.unsafe(RUNS_WAITING_ON_KEY);
      return Object.fromEntries(rows.map((row) => [row.trigger_id, Number(row.n)]));
    });
  }

  countReplayable(query: ReplayQuery): Promise<number> {
    return this.connection.guard(async (sql) => {
      const count = replayCountSql(query, (n) => `$${n}`);
      const [row] = await sql.unsafe(count.sql, count.params);
      return Number(row.n);
    });
  }

  listReplayable(query: ReplayQuery, afterSeq: number, limit: number): Promise<ReplayCandidate[]> {
    return this.connection.guard(async (sql) => {
      const page = replayPageSql(query, afterSeq, limit, (n) => `$${n}`);
      const rows: Array<{ seq: string; id: string; request_id: string; json: string; destination: string | null }> = await sql.unsafe(page.sql, page.params);
      return rows.map((row) => ({
        seq: Number(row.seq),
        id: row.id,
        requestId: row.request_id,
        trigger: parseJson(row.json),
        ...(row.destination ? { destination: row.destination } : {}),
      }));
    });
  }

  listRuns(filter: { triggerId?: string; includeTrigger: boolean } & Page): Promise<RunRecord[]> {
    return this.connection.guard(async (sql) => {
      const columns = runColumns(filter.includeTrigger);
      const seq = await this.cursor(sql, "runs", filter.before);
      const rows: RunRow[] = filter.triggerId
        ? await sql.unsafe(`SELECT ${columns} FROM runs WHERE trigger_id = $1 AND seq < $2::bigint ORDER BY seq DESC LIMIT $3`, [
            filter.triggerId,
            seq,
            filter.limit,
          ])
        : await sql.unsafe(`SELECT ${columns} FROM runs WHERE seq < $1::bigint ORDER BY seq DESC LIMIT $2`, [seq, filter.limit]);
      return rows.map(toRun);
    });
  }

  getRun(id: string): Promise<RunRecord | null> {
    return this.connection.guard(async (sql) => {
      const [row] = await sql.unsafe(`SELECT ${runColumns(true)} FROM runs WHERE id = $1`, [id]);
      return row ? toRun(row) : null;
    });
  }
}
