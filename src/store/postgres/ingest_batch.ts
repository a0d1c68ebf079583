import { DEFAULT_DESTINATION } from "../../records/destination.ts";
import type { IngestRecord } from "../../records/ingest.ts";
import { jsonOrNull } from "../rows.ts";
import { laneOf } from "../run_order.ts";

/** Deadlocks and serialization failures: the batch is retried, nothing of it was written. */
export const RETRYABLE_BATCH_ERRORS = new Set(["40P01", "40001"]);

/** One accepted request in a grouped ingest statement (see INGEST_BATCH_SQL). */
export interface BatchItem {
  i: number;
  trigger_id: string;
  key_hash: string | null;
  claim: boolean;
  seen_ms: number;
  expires_ms: number | null;
  run_id: string | null;
  run_request_id: string | null;
  run_status: string | null;
  trigger_json: string | null;
  result_json: string | null;
  attempts: number | null;
  run_error: string | null;
  run_created_at: string | null;
  run_finished_at: string | null;
  run_created_ms: number | null;
  lease_owner: string | null;
  lease_until_ms: number | null;
  replay_of: string | null;
  lane: number | null;
  ordering_key: string | null;
  destination: string | null;
  /** The other destinations' runs (JSON of FanOutRun[]), inserted with the first when the item won. */
  fan_out: string | null;
  act_id: string;
  at: string;
  at_ms: number;
  request_id: string;
  outcome: string;
  act_run_id: string | null;
  detail: string | null;
  request_json: string | null;
  run_ids: string | null;
}

/** Another destination's run of the same request: what differs from the item's first run. */
interface FanOutRun {
  id: string;
  status: string;
  attempts: number;
  result_json: string | null;
  finished_at: string | null;
  ordering_key: string | null;
  destination: string;
}

/**
 * Everything a batch of accepted requests writes, in one statement (one round trip, one commit):
 * dedup keys are claimed with INSERT … ON CONFLICT, which serialises identical keys across every
 * instance (the loser waits for the winner's commit, then sees its key); an expired key is taken
 * over. Runs are inserted for the items that won their key (or had none), and every item gets its
 * Activity row: `deduplicated` when it lost. Keys are claimed in sorted order so that two batches
 * can never wait on each other in a cycle.
 */
export const INGEST_BATCH_SQL = `
WITH input AS (
  SELECT * FROM json_to_recordset($1::text::json) AS x(
    i int, trigger_id text, key_hash text, claim boolean, seen_ms bigint, expires_ms bigint,
    run_id text, run_request_id text, run_status text, trigger_json text, result_json text, attempts int,
    run_error text, run_created_at text, run_finished_at text, run_created_ms bigint, lease_owner text, lease_until_ms bigint,
    replay_of text, lane int, ordering_key text, destination text, fan_out text,
    act_id text, at text, at_ms bigint, request_id text, outcome text, act_run_id text, detail text, request_json text, run_ids text)
),
claimed AS (
  INSERT INTO dedup_keys AS d (trigger_id, key_hash, seen_ms, expires_ms)
  SELECT trigger_id, key_hash, seen_ms, expires_ms FROM input WHERE claim ORDER BY trigger_id, key_hash
  ON CONFLICT (trigger_id, key_hash) DO UPDATE SET seen_ms = EXCLUDED.seen_ms, expires_ms = EXCLUDED.expires_ms
    WHERE d.expires_ms <= EXCLUDED.seen_ms
  RETURNING d.trigger_id, d.key_hash
),
won AS (
  SELECT input.i FROM input WHERE input.key_hash IS NULL
  UNION ALL
  SELECT input.i FROM input JOIN claimed c ON c.trigger_id = input.trigger_id AND c.key_hash = input.key_hash WHERE input.claim
),
new_runs AS (
  INSERT INTO runs (id, trigger_id, request_id, status, trigger_json, result_json, attempts, error, created_at, finished_at, created_ms,
    replay_of, lane, ordering_key, destination, lease_owner, lease_until_ms)
  SELECT run_id, trigger_id, run_request_id, run_status, trigger_json, result_json, attempts, run_error, run_created_at, run_finished_at, run_created_ms,
    replay_of, lane, ordering_key, coalesce(destination, 'default'), lease_owner, lease_until_ms
  FROM input WHERE run_id IS NOT NULL AND i IN (SELECT i FROM won)
  UNION ALL
  SELECT f.id, input.trigger_id, run_request_id, f.status, trigger_json, f.result_json, f.attempts, NULL, run_created_at, f.finished_at, run_created_ms,
    replay_of, lane, f.ordering_key, f.destination, NULL, NULL
  FROM input, json_to_recordset(input.fan_out::json) AS f(id text, status text, attempts int, result_json text, finished_at text, ordering_key text, destination text)
  WHERE input.fan_out IS NOT NULL AND input.i IN (SELECT i FROM won)
),
new_activity AS (
  INSERT INTO activity (id, trigger_id, at, at_ms, request_id, outcome, run_id, detail, request_json, run_ids)
  SELECT act_id, trigger_id, at, at_ms, request_id,
    CASE WHEN w.i IS NULL THEN 'deduplicated' ELSE outcome END,
    CASE WHEN w.i IS NULL THEN NULL ELSE act_run_id END,
    detail,
    CASE WHEN w.i IS NULL THEN NULL ELSE request_json END,
    CASE WHEN w.i IS NULL THEN NULL ELSE run_ids END
  FROM input LEFT JOIN won w USING (i) ORDER BY input.i
)
SELECT i FROM won`;

/** The batch's rows, one per accepted request; only the first of identical keys in the batch claims it. */
export function batchItems(records: IngestRecord[]): BatchItem[] {
  const seen = new Set<string>();
  return records.map(({ dedup, run, fanOut, activity, triggerJson, reservedFor }, i) => {
    const atMs = Date.parse(activity.at);
    // Only the first of identical keys in one batch claims it; the others are its duplicates.
    const slot = dedup ? `${activity.triggerId}\u0000${dedup.keyHash}` : null;
    const claim = slot !== null && !seen.has(slot);
    if (slot) seen.add(slot);
    return {
      i,
      trigger_id: activity.triggerId,
      key_hash: dedup?.keyHash ?? null,
      claim,
      seen_ms: atMs,
      expires_ms: dedup ? atMs + dedup.windowSeconds * 1000 : null,
      run_id: run?.id ?? null,
      run_request_id: run?.requestId ?? null,
      run_status: run?.status ?? null,
      trigger_json: run ? (triggerJson ?? JSON.stringify(run.trigger)) : null,
      result_json: run ? jsonOrNull(run.result) : null,
      attempts: run?.attempts ?? null,
      run_error: run?.error ?? null,
      run_created_at: run?.createdAt ?? null,
      run_finished_at: run?.finishedAt ?? null,
      run_created_ms: run ? Date.parse(run.createdAt) : null,
      lease_owner: run && reservedFor ? reservedFor.owner : null,
      lease_until_ms: run && reservedFor ? reservedFor.untilMs : null,
      replay_of: run?.replayOf ?? null,
      lane: run ? laneOf(run) : null,
      ordering_key: run?.orderingKey ?? null,
      destination: run?.destination ?? null,
      fan_out: run && fanOut && fanOut.length > 0 ? JSON.stringify(fanOut.map(fanOutRun)) : null,
      act_id: activity.id,
      at: activity.at,
      at_ms: atMs,
      request_id: activity.requestId,
      outcome: activity.outcome,
      act_run_id: activity.runId,
      detail: activity.detail,
      request_json: activity.outcome === "filtered" && activity.request !== undefined ? JSON.stringify(activity.request) : null,
      run_ids: activity.runIds && activity.runIds.length > 1 ? JSON.stringify(activity.runIds) : null,
    };
  });
}

function fanOutRun(run: NonNullable<IngestRecord["fanOut"]>[number]): FanOutRun {
  return {
    id: run.id,
    status: run.status,
    attempts: run.attempts,
    result_json: jsonOrNull(run.result),
    finished_at: run.finishedAt,
    ordering_key: run.orderingKey ?? null,
    destination: run.destination ?? DEFAULT_DESTINATION,
  };
}
