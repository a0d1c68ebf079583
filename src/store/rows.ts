import type { TriggerConfig } from "../triggers/schema.ts";
import type { ActivityRecord, RunRecord, StoredTrigger } from "./types.ts";

/**
 * The row shapes both SQL stores share (the same column names in SQLite and PostgreSQL) and their
 * mapping to records. JSON columns are stored as text in both, so `$trigger` comes back exactly.
 */

export interface TriggerRow {
  config: string;
  secret_sealed: string | null;
  app_secret_sealed: string | null;
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
}

export interface ActivityRow {
  id: string;
  trigger_id: string;
  at: string;
  request_id: string;
  outcome: ActivityRecord["outcome"];
  run_id: string | null;
  detail: string | null;
}

export const toTrigger = (row: TriggerRow): StoredTrigger => ({
  config: JSON.parse(row.config) as TriggerConfig,
  secretSealed: row.secret_sealed,
  appSecretSealed: row.app_secret_sealed,
});

export const toRun = (row: RunRow): RunRecord => ({
  id: row.id,
  triggerId: row.trigger_id,
  requestId: row.request_id,
  status: row.status,
  ...(row.trigger_json !== undefined ? { trigger: JSON.parse(row.trigger_json) } : {}),
  result: row.result_json === null ? null : JSON.parse(row.result_json),
  attempts: row.attempts,
  error: row.error,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

export const toActivity = (row: ActivityRow): ActivityRecord => ({
  id: row.id,
  triggerId: row.trigger_id,
  at: row.at,
  requestId: row.request_id,
  outcome: row.outcome,
  runId: row.run_id,
  detail: row.detail,
});

export const jsonOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** The columns of a run, with or without its `$trigger`. */
export const runColumns = (includeTrigger: boolean) =>
  `id, trigger_id, request_id, status, ${includeTrigger ? "trigger_json, " : ""}result_json, attempts, error, created_at, finished_at`;
