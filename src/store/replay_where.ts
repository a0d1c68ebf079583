import type { ReplayQuery } from "../records/ingest.ts";

/**
 * A run that no later run of its request *for the same destination* follows: that destination's
 * latest attempt at the request (each destination's run is replayed on its own: README
 * "Destinations"). Only a request's first runs can replay nothing, every later run of it is a
 * replay; looking at replays only keeps the lookup on the partial index of replays
 * (`runs_replays_by_request`), which live runs never write.
 */
const LATEST_RUN = `NOT EXISTS (SELECT 1 FROM runs AS later WHERE later.request_id = runs.request_id AND later.trigger_id = runs.trigger_id
  AND later.replay_of IS NOT NULL AND later.destination = runs.destination AND later.seq > runs.seq)`;

/** A Filtered row that no later Filtered row of its request follows (a replay that was filtered again leaves one). */
const LATEST_FILTERED_ROW = `NOT EXISTS (SELECT 1 FROM activity AS later WHERE later.request_id = activity.request_id AND later.trigger_id = activity.trigger_id
  AND later.outcome = 'filtered' AND later.seq > activity.seq)`;

/**
 * A filtered request no run came of, from a replay of any of its Filtered rows (or of such a
 * replay's run). A request filtered on arrival has no live run: each run it has is a replay.
 */
const NEVER_RUN = `NOT EXISTS (SELECT 1 FROM runs AS replay WHERE replay.request_id = activity.request_id AND replay.trigger_id = activity.trigger_id
  AND replay.replay_of IS NOT NULL)`;

/**
 * A bulk replay's selection as SQL for either store: `placeholder(n)` writes the n-th parameter
 * (`?` for SQLite, `$n` for PostgreSQL). It holds one row per request and destination, its latest
 * attempt: the newest run of the request for that destination, or the newest Filtered row of a
 * request no run came of; then that
 * row is selected by status and creation time (runs) or by arrival (filtered rows that kept their
 * request). So a request whose replay succeeded is not replayed again by a second "replay failed
 * runs", one whose replay failed again is replayed as that run, and the count, a dry run and the
 * replay itself see the same requests.
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
  if (query.source === "filtered") parts.push("outcome = 'filtered'", "request_json IS NOT NULL", LATEST_FILTERED_ROW, NEVER_RUN);
  else {
    if (query.statuses?.length) parts.push(`status IN (${query.statuses.map(next).join(", ")})`);
    if (query.destinations?.length) parts.push(`destination IN (${query.destinations.map(next).join(", ")})`);
    parts.push(LATEST_RUN);
  }
  if (query.sinceMs !== undefined) parts.push(`${time} >= ${next(query.sinceMs)}`);
  if (query.untilMs !== undefined) parts.push(`${time} <= ${next(query.untilMs)}`);
  return { table, where: parts.join(" AND "), params, next };
}

/** How many requests match (`n`): one row each. */
export function replayCountSql(query: ReplayQuery, placeholder: (n: number) => string): { sql: string; params: Array<string | number> } {
  const { table, where, params } = replayWhere(query, 0, placeholder);
  return { sql: `SELECT count(*) AS n FROM ${table} WHERE ${where}`, params };
}

/** The next `limit` matches after `afterSeq`, oldest first: `seq`, `id`, `request_id`, the stored request as `json` and a run's `destination`. */
export function replayPageSql(
  query: ReplayQuery,
  afterSeq: number,
  limit: number,
  placeholder: (n: number) => string,
): { sql: string; params: Array<string | number> } {
  const { table, where, params, next } = replayWhere(query, afterSeq, placeholder);
  const json = query.source === "runs" ? "trigger_json AS json, destination" : "request_json AS json, NULL AS destination";
  return { sql: `SELECT seq, id, request_id, ${json} FROM ${table} WHERE ${where} ORDER BY seq LIMIT ${next(limit)}`, params };
}
