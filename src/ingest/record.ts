import type { DedupClaim } from "../records/ingest.ts";
import type { HeldRunLease, RunRecord } from "../records/run.ts";
import type { IngestLog } from "../store/ingest_log.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { activityRow } from "./activity.ts";
import type { Arrival } from "./arrival.ts";
import type { Delivery } from "./delivery.ts";
import { noted, reportOnlyNote } from "./report_only.ts";

/** What recording needs of the server. */
export interface RecordDeps {
  store: Pick<IngestLog, "commitIngest">;
  /** A lease to commit a run already held by this instance (workflow response mode), or null. */
  runLease?(trigger: TriggerRecord): HeldRunLease | null;
}

/** `$trigger`: the run's input (CONTRACT §3), with the redacted body. */
export function triggerPayload(delivery: Delivery, body: unknown) {
  return {
    body,
    headers: delivery.headers,
    query: delivery.query,
    method: delivery.method,
    receivedAt: delivery.receivedAt,
    requestId: delivery.requestId,
    triggerId: delivery.trigger.id,
    ...(delivery.reportOnly?.auth ? { auth: delivery.reportOnly.auth } : {}),
    ...(delivery.reportOnly?.sources ? { sources: delivery.reportOnly.sources } : {}),
    app: delivery.app,
    ...(delivery.files ? { files: delivery.files } : {}),
  };
}

/**
 * The Activity detail of a delivery that ends with `reason` (or none): a replay names what it
 * replays; a live request a report-only check let through starts with what it failed.
 */
function detailOf(delivery: Delivery, reason: string | null): string | null {
  if (delivery.replayOf) return reason === null ? `replay of ${delivery.replayOf}` : `replay of ${delivery.replayOf}: ${reason}`;
  return noted(reportOnlyNote(delivery.reportOnly), reason);
}

/**
 * `$trigger` as the JSON text the store keeps: the body's text as received when the delivery
 * carries it (see `Delivery.bodyJson`) and the payload still holds that body, so a large body is
 * not serialized again; else the whole payload serialized. Either parses to the same value.
 */
export function triggerJson(delivery: Delivery, payload: ReturnType<typeof triggerPayload>): string {
  if (delivery.bodyJson === null || payload.body !== delivery.body) return JSON.stringify(payload);
  const { body: _body, ...rest } = payload;
  return `{"body":${delivery.bodyJson},${JSON.stringify(rest).slice(1)}`;
}

const at = (delivery: Delivery, iso?: string) => ({ triggerId: delivery.trigger.id, requestId: delivery.requestId, now: delivery.now, iso });

/**
 * Records the run, the dedup key and the Activity row in one transaction (durable when this
 * resolves); `duplicate` when the store found the key already claimed (then only a
 * `deduplicated` Activity row was written). Workflow `none` is recorded as already succeeded.
 * `lease`: the run was committed already held by this instance (workflow response mode), in the
 * lease's slot, which the caller hands on with the run; a lease no run was committed with is
 * released here.
 */
export async function recordRun(
  deps: RecordDeps,
  delivery: Delivery,
  body: unknown,
  orderingKey: string | null = null,
): Promise<{ run: RunRecord & { trigger: unknown }; duplicate: boolean; lease: HeldRunLease | null }> {
  const { trigger, now } = delivery;
  const immediate = trigger.workflow.kind === "none";
  // An ordered run waits for its key in the queue, and a replay (nobody waits for its answer) takes
  // its turn there like every replay (CONTRACT §6.1): neither is committed already leased.
  const lease = immediate || orderingKey || delivery.replayOf ? null : (deps.runLease?.(trigger) ?? null);
  const createdAt = now.toISOString();
  const payload = triggerPayload(delivery, body);
  const run: RunRecord & { trigger: unknown } = {
    id: Bun.randomUUIDv7(),
    triggerId: trigger.id,
    requestId: delivery.requestId,
    status: immediate ? "succeeded" : lease ? "running" : "queued",
    trigger: payload,
    result: null,
    attempts: immediate ? 1 : 0,
    error: null,
    createdAt,
    finishedAt: immediate ? createdAt : null,
    replayOf: delivery.replayOf,
    orderingKey: immediate ? null : orderingKey,
  };
  const detail = detailOf(delivery, null);
  let deduplicated: boolean;
  try {
    ({ deduplicated } = await deps.store.commitIngest({
      dedup: delivery.claim,
      run,
      triggerJson: triggerJson(delivery, payload),
      activity: activityRow(at(delivery, createdAt), "run", detail, run.id),
      lease,
    }));
  } catch (error) {
    lease?.release();
    throw error;
  }
  if (deduplicated) lease?.release();
  return { run, duplicate: deduplicated, lease: deduplicated ? null : lease };
}

/**
 * Records a filtered request with its dedup key (a provider's retry of it is deduplicated) and
 * keeps its redacted `$trigger` on the Activity row, so it can be replayed; true when it was a
 * duplicate after all.
 */
export async function recordFiltered(deps: RecordDeps, delivery: Delivery, reason: string, redactedBody: unknown): Promise<boolean> {
  const activity = { ...activityRow(at(delivery), "filtered", detailOf(delivery, reason), null), request: triggerPayload(delivery, redactedBody) };
  const { deduplicated } = await deps.store.commitIngest({ dedup: delivery.claim, run: null, activity });
  return deduplicated;
}

/** Records a request refused after deduplication (schema) with its dedup key; true when it was a duplicate after all. */
export async function recordRejected(deps: RecordDeps, arrival: Arrival, claim: DedupClaim | null, reason: string): Promise<boolean> {
  const at = { triggerId: arrival.trigger.id, requestId: arrival.requestId, now: arrival.now };
  const { deduplicated } = await deps.store.commitIngest({ dedup: claim, run: null, activity: activityRow(at, "rejected", reason, null) });
  return deduplicated;
}
