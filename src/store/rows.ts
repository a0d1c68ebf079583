import { parseJson } from "../json/index.ts";
import type { TriggerConfig } from "../records/trigger.ts";
import type { ActivityRecord } from "../records/activity.ts";
import type { RunRecord } from "../records/run.ts";
import type { StoredTrigger } from "./store.ts";

/**
 * The row shapes both SQL stores share (the same column names in SQLite and PostgreSQL) and their
 * mapping to records. JSON columns are stored as text in both, so `$trigger` comes back exactly,
 * and is read with its numbers exact (`parseJson`: an id beyond 2^53 is an ExactNumber).
 */

export interface TriggerRow {
  config: string;
  secret_sealed: string | null;
  app_secret_sealed: string | null;
  armed_until: string | null;
}

export interface RunRow {
  id: string;
  trigger_id: string;
  request_id: string;
  status: RunRecord["status"];
  /** Present only when the query selected it (listing runs without `include=trigger` does not). */
  trigger_json?: string;
  result_json: string | null;
  attempts: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  replay_of: string | null;
  ordering_key: string | null;
}

export interface ActivityRow {
  id: string;
  trigger_id: string;
  at: string;
  request_id: string;
  outcome: ActivityRecord["outcome"];
  run_id: string | null;
  detail: string | null;
  /** How many requests the row stands for (a bigint or text from some drivers). */
  count: number | string;
  /** Present only when the query selected it (reading one row for replay). */
  request_json?: string | null;
}

export const toTrigger = (row: TriggerRow): StoredTrigger => ({
  config: JSON.parse(row.config) as TriggerConfig,
  secretSealed: row.secret_sealed,
  appSecretSealed: row.app_secret_sealed,
  armedUntil: row.armed_until,
});

export const toRun = (row: RunRow): RunRecord => ({
  id: row.id,
  triggerId: row.trigger_id,
  requestId: row.request_id,
  status: row.status,
  ...(row.trigger_json !== undefined ? { trigger: parseJson(row.trigger_json) } : {}),
  result: row.result_json === null ? null : parseJson(row.result_json),
  attempts: row.attempts,
  error: row.error,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  replayOf: row.replay_of ?? null,
  orderingKey: row.ordering_key ?? null,
});

export const toActivity = (row: ActivityRow): ActivityRecord => ({
  id: row.id,
  triggerId: row.trigger_id,
  at: row.at,
  requestId: row.request_id,
  outcome: row.outcome,
  runId: row.run_id,
  detail: row.detail,
  count: Number(row.count),
  ...(row.request_json ? { request: parseJson(row.request_json) } : {}),
});

/** The columns of an Activity row as listed (reading one row for replay adds `request_json`). */
export const ACTIVITY_COLUMNS = "id, trigger_id, at, request_id, outcome, run_id, detail, count";

export const jsonOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** The columns of a run, with or without its `$trigger`. */
export const runColumns = (includeTrigger: boolean) =>
  `id, trigger_id, request_id, status, ${includeTrigger ? "trigger_json, " : ""}result_json, attempts, error, created_at, finished_at, replay_of, ordering_key`;

/** Queue lanes: live runs are claimed before replayed ones, so a bulk replay never starves live traffic. */
export const LIVE_LANE = 0;
export const REPLAY_LANE = 1;
export const laneOf = (run: { replayOf?: string | null }) => (run.replayOf ? REPLAY_LANE : LIVE_LANE);

/**
 * A queued run may start only while no other run of its trigger with the same ordering key is
 * running (a retrying run is running: it holds its key until it ends) and none is queued ahead of
 * it. `r` is the candidate's alias; runs without a key skip the check.
 */
export const ORDERED_RUN_MAY_START = `(r.ordering_key IS NULL OR NOT EXISTS (
  SELECT 1 FROM runs e WHERE e.trigger_id = r.trigger_id AND e.ordering_key = r.ordering_key AND e.id <> r.id
    AND (e.status = 'running' OR (e.status = 'queued' AND e.seq < r.seq))))`;

/** Queued ordered runs that may not start yet, counted per trigger (for `/metrics`). */
export const RUNS_WAITING_ON_KEY = `SELECT r.trigger_id, count(*) AS n FROM runs r
  WHERE r.status = 'queued' AND r.ordering_key IS NOT NULL AND NOT ${ORDERED_RUN_MAY_START} GROUP BY r.trigger_id`;
