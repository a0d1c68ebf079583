import type { ReplayQuery } from "../records/ingest.ts";

/**
 * A bulk replay's selection as SQL for either store: `placeholder(n)` writes the n-th parameter
 * (`?` for SQLite, `$n` for PostgreSQL). Runs are selected by status and creation time; filtered
 * requests by arrival, and only those that kept their request. Either is left out once a run
 * replays it: a bulk replay takes each request's latest attempt, so a request whose replay
 * succeeded is not replayed again by a second "replay failed runs", and one whose replay failed
 * again is replayed as that run.
 */
function replayWhere(query: ReplayQuery, afterSeq: number, placeholder: (n: number) => string) {
  const table = query.source === "runs" ? "runs" : "activity";
  const time = query.source === "runs" ? "created_ms" : "at_ms";
  const params: Array<string | number> = [];
  const next = (value: string | number) => {
    params.push(value);
    return placeholder(params.length);
  };
  const parts = [`trigger_id = ${next(query.triggerId)}`, `seq > ${next(afterSeq)}`];
  if (query.source === "filtered") parts.push("outcome = 'filtered'", "request_json IS NOT NULL");
  else if (query.statuses?.length) parts.push(`status IN (${query.statuses.map(next).join(", ")})`);
  parts.push(`NOT EXISTS (SELECT 1 FROM runs AS replay WHERE replay.replay_of = ${table}.id)`);
  if (query.sinceMs !== undefined) parts.push(`${time} >= ${next(query.sinceMs)}`);
  if (query.untilMs !== undefined) parts.push(`${time} <= ${next(query.untilMs)}`);
  return { table, where: parts.join(" AND "), params, next };
}

/** How many requests match: distinct request ids (`n`). */
export function replayCountSql(query: ReplayQuery, placeholder: (n: number) => string): { sql: string; params: Array<string | number> } {
  const { table, where, params } = replayWhere(query, 0, placeholder);
  return { sql: `SELECT count(DISTINCT request_id) AS n FROM ${table} WHERE ${where}`, params };
}

/** The next `limit` matches after `afterSeq`, oldest first: `seq`, `id` and the stored request as `json`. */
export function replayPageSql(query: ReplayQuery, afterSeq: number, limit: number, placeholder: (n: number) => string): { sql: string; params: Array<string | number> } {
  const { table, where, params, next } = replayWhere(query, afterSeq, placeholder);
  const json = query.source === "runs" ? "trigger_json" : "request_json";
  return { sql: `SELECT seq, id, ${json} AS json FROM ${table} WHERE ${where} ORDER BY seq LIMIT ${next(limit)}`, params };
}
