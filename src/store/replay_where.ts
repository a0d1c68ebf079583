import type { ReplayQuery } from "../records/ingest.ts";

/**
 * The WHERE clause of a bulk replay's selection after the `afterSeq` cursor, for either SQL
 * store: `placeholder(n)` writes the n-th parameter (`?` for SQLite, `$n` for PostgreSQL).
 * Runs are selected by status and creation time; filtered requests by arrival, and only those
 * that kept their request. Either is left out once a run replays it: a bulk replay takes each
 * request's latest attempt, so a request whose replay succeeded is not replayed again by a
 * second "replay failed runs", and one whose replay failed again is replayed as that run.
 */
export function replayWhere(query: ReplayQuery, afterSeq: number, placeholder: (n: number) => string): { where: string; params: Array<string | number> } {
  const time = query.source === "runs" ? "created_ms" : "at_ms";
  const params: Array<string | number> = [];
  const next = (value: string | number) => {
    params.push(value);
    return placeholder(params.length);
  };
  const parts = [`trigger_id = ${next(query.triggerId)}`, `seq > ${next(afterSeq)}`];
  if (query.source === "filtered") parts.push("outcome = 'filtered'", "request_json IS NOT NULL");
  else if (query.statuses?.length) parts.push(`status IN (${query.statuses.map(next).join(", ")})`);
  const table = query.source === "runs" ? "runs" : "activity";
  parts.push(`NOT EXISTS (SELECT 1 FROM runs AS replay WHERE replay.replay_of = ${table}.id)`);
  if (query.sinceMs !== undefined) parts.push(`${time} >= ${next(query.sinceMs)}`);
  if (query.untilMs !== undefined) parts.push(`${time} <= ${next(query.untilMs)}`);
  return { where: parts.join(" AND "), params };
}
