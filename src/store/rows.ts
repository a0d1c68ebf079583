import { parseJson } from "../json/index.ts";
import type { TriggerConfig } from "../records/trigger.ts";
import type { ActivityRecord } from "../records/activity.ts";
import type { RunRecord } from "../records/run.ts";
import type { DestinationState } from "../records/destination_state.ts";
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
  destination: string;
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
  /** Every run of the request, as JSON, when it went to several destinations. */
  run_ids: string | null;
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
  destination: row.destination,
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
  ...(row.run_ids ? { runIds: JSON.parse(row.run_ids) as string[] } : {}),
  ...(row.request_json ? { request: parseJson(row.request_json) } : {}),
});

/** The columns of an Activity row as listed (reading one row for replay adds `request_json`). */
export const ACTIVITY_COLUMNS = "id, trigger_id, at, request_id, outcome, run_id, detail, count, run_ids";

export const jsonOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** The columns of a run, with or without its `$trigger`. */
export const runColumns = (includeTrigger: boolean) =>
  `id, trigger_id, request_id, status, ${includeTrigger ? "trigger_json, " : ""}result_json, attempts, error, created_at, finished_at, replay_of, ordering_key, destination`;

export interface DestinationStateRow {
  trigger_id: string;
  destination: string;
  paused: number | boolean;
  breaker: DestinationState["breaker"];
  failures: number;
  open_until_ms: number | string | null;
  open_ms: number | string | null;
  opened_at_ms: number | string | null;
  last_start_ms: number | string | null;
  window_count: number;
}

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));

export const toDestinationState = (row: DestinationStateRow): DestinationState => ({
  triggerId: row.trigger_id,
  destination: row.destination,
  paused: row.paused === true || row.paused === 1,
  breaker: row.breaker,
  failures: Number(row.failures),
  openUntilMs: numberOrNull(row.open_until_ms),
  openMs: numberOrNull(row.open_ms),
  openedAtMs: numberOrNull(row.opened_at_ms),
  lastStartMs: numberOrNull(row.last_start_ms),
  windowCount: Number(row.window_count),
});

/** A state's columns in the order DESTINATION_STATE_COLUMNS names them. */
export const destinationStateValues = (s: DestinationState) =>
  [s.triggerId, s.destination, s.paused, s.breaker, s.failures, s.openUntilMs, s.openMs, s.openedAtMs, s.lastStartMs, s.windowCount] as const;

export const DESTINATION_STATE_COLUMNS =
  "trigger_id, destination, paused, breaker, failures, open_until_ms, open_ms, opened_at_ms, last_start_ms, window_count";
