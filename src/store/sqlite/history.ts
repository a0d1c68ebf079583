import { parseJson } from "../../json/index.ts";
import type { ActivityRecord } from "../../records/activity.ts";
import type { ReplayCandidate, ReplayQuery } from "../../records/ingest.ts";
import type { RunRecord } from "../../records/run.ts";
import { UnknownCursor } from "../errors.ts";
import type { History, Page } from "../history.ts";
import { replayCountSql, replayPageSql } from "../replay_where.ts";
import { ACTIVITY_COLUMNS, runColumns, toActivity, toRun, type ActivityRow, type RunRow } from "../rows.ts";
import { RUNS_WAITING_ON_KEY } from "../run_order.ts";
import type { SqliteConnection } from "./connection.ts";

const RUN_COLUMNS = runColumns(true);

/** Runs and Activity read back on SQLite, newest first, paged by the id of the last row seen. */
export class SqliteHistory implements History {
  constructor(private readonly connection: SqliteConnection) {}

  private get db() {
    return this.connection.db;
  }

  private cursor(table: "runs" | "activity", before: string | undefined): number {
    if (before === undefined) return Number.MAX_SAFE_INTEGER;
    const row = this.db.query<{ seq: number }, [string]>(`SELECT seq FROM ${table} WHERE id = ?`).get(before);
    if (!row) throw new UnknownCursor(`before: no ${table === "runs" ? "run" : "Activity row"} with id ${JSON.stringify(before)}`);
    return row.seq;
  }

  listActivity(triggerId: string, page: Page): Promise<ActivityRecord[]> {
    return this.connection.guard(() =>
      this.db
        .query<ActivityRow, [string, number, number]>(`SELECT ${ACTIVITY_COLUMNS} FROM activity WHERE trigger_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`)
        .all(triggerId, this.cursor("activity", page.before), page.limit)
        .map(toActivity),
    );
  }

  getActivity(id: string): Promise<ActivityRecord | null> {
    return this.connection.guard(() => {
      const row = this.db.query<ActivityRow, [string]>(`SELECT ${ACTIVITY_COLUMNS}, request_json FROM activity WHERE id = ?`).get(id);
      return row ? toActivity(row) : null;
    });
  }

  runsWaitingOnKey(): Promise<Record<string, number>> {
    return this.connection.guard(() =>
      Object.fromEntries(
        this.db
          .query<{ trigger_id: string; n: number }, []>(RUNS_WAITING_ON_KEY)
          .all()
          .map((row) => [row.trigger_id, row.n]),
      ),
    );
  }

  countReplayable(query: ReplayQuery): Promise<number> {
    return this.connection.guard(() => {
      const { sql, params } = replayCountSql(query, () => "?");
      return this.db.query<{ n: number }, Array<string | number>>(sql).get(...params)!.n;
    });
  }

  listReplayable(query: ReplayQuery, afterSeq: number, limit: number): Promise<ReplayCandidate[]> {
    return this.connection.guard(() => {
      const { sql, params } = replayPageSql(query, afterSeq, limit, () => "?");
      return this.db
        .query<{ seq: number; id: string; request_id: string; json: string; destination: string | null }, Array<string | number>>(sql)
        .all(...params)
        .map((row) => ({
          seq: row.seq,
          id: row.id,
          requestId: row.request_id,
          trigger: parseJson(row.json),
          ...(row.destination ? { destination: row.destination } : {}),
        }));
    });
  }

  listRuns(filter: { triggerId?: string; includeTrigger: boolean } & Page): Promise<RunRecord[]> {
    return this.connection.guard(() => {
      const columns = runColumns(filter.includeTrigger);
      const seq = this.cursor("runs", filter.before);
      const rows = filter.triggerId
        ? this.db
            .query<RunRow, [string, number, number]>(`SELECT ${columns} FROM runs WHERE trigger_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`)
            .all(filter.triggerId, seq, filter.limit)
        : this.db.query<RunRow, [number, number]>(`SELECT ${columns} FROM runs WHERE seq < ? ORDER BY seq DESC LIMIT ?`).all(seq, filter.limit);
      return rows.map(toRun);
    });
  }

  getRun(id: string): Promise<RunRecord | null> {
    return this.connection.guard(() => {
      const row = this.db.query<RunRow, [string]>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`).get(id);
      return row ? toRun(row) : null;
    });
  }
}
