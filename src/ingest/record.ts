import type { DedupClaim } from "../records/ingest.ts";
import type { DirectSlot, RunRecord } from "../records/run.ts";
import type { IngestLog } from "../store/ingest_log.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { activityRow } from "./activity.ts";
import type { Arrival } from "./arrival.ts";
import type { Delivery } from "./delivery.ts";
import { DEFAULT_DESTINATION, destinationsOf, respondingDestination, type DestinationConfig } from "../records/destination.ts";
import { noted, reportOnlyNote } from "./report_only.ts";

/** What recording needs of the server. */
export interface RecordDeps {
  store: Pick<IngestLog, "commitIngest">;
  /** A slot of this instance's for a waiting caller's run (workflow response mode), or null. */
  directSlot?(trigger: TriggerRecord): DirectSlot | null;
  /** Whether a destination is paused now (its runs wait queued, a `none` one's too). */
  destinationPaused?(triggerId: string, destination: string): boolean;
}

/** `$trigger`: the run's input (docs/api.md#the-runs-input), with the redacted body. */
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

/** Where one accepted request goes: the destinations chosen for it, and each one's ordering key. */
export interface Route {
  destinations: DestinationConfig[];
  /** Ordering keys by destination name; a destination without one is not ordered. */
  orderingKeys: Record<string, string>;
}

/**
 * Records the runs (one per destination of `route`), the dedup key and the Activity row in one
 * transaction (durable when this resolves); `duplicate` when the store found the key already
 * claimed (then only a `deduplicated` Activity row was written). A destination whose workflow is
 * `none` gets a run recorded as already succeeded. `run` is the one a workflow response waits
 * for: the responding destination's (README "Destinations"), else the first. `slot`: a direct slot
 * of this instance's was taken for that run (workflow response mode), which is committed reserved
 * for this instance (RunReservation) and handed on with the slot; a slot no run was committed
 * with is released here.
 */
export async function recordRun(
  deps: RecordDeps,
  delivery: Delivery,
  body: unknown,
  orderingKey: string | null = null,
  route: Route = { destinations: destinationsOf(delivery.trigger), orderingKeys: orderingKey === null ? {} : { [DEFAULT_DESTINATION]: orderingKey } },
): Promise<{ run: RunRecord & { trigger: unknown }; runs: Array<RunRecord & { trigger: unknown }>; duplicate: boolean; slot: DirectSlot | null }> {
  const { trigger, now } = delivery;
  const createdAt = now.toISOString();
  const payload = triggerPayload(delivery, body);
  const responder = respondingDestination(trigger)?.name;
  // The responding destination's run first: only the first run of a commit can be reserved.
  const ordered = [...route.destinations].sort((a, b) => Number(b.name === responder) - Number(a.name === responder));
  const runs = ordered.map((destination) =>
    newRun(
      delivery,
      payload,
      createdAt,
      destination,
      route.orderingKeys[destination.name] ?? null,
      deps.destinationPaused?.(trigger.id, destination.name) ?? false,
    ),
  );
  const first = runs[0];
  // The waiting caller's run gets a slot of its own; an ordered run waits for its key in the
  // queue, and a replay (nobody waits for its answer) takes its turn there like every replay.
  const direct = ordered[0].name === responder && first.status === "queued" && !first.orderingKey && !delivery.replayOf;
  const slot = direct ? (deps.directSlot?.(trigger) ?? null) : null;
  const row = activityRow(at(delivery, createdAt), "run", detailOf(delivery, null), first.id);
  let deduplicated: boolean;
  try {
    ({ deduplicated } = await deps.store.commitIngest({
      dedup: delivery.claim,
      run: first,
      fanOut: runs.slice(1),
      triggerJson: triggerJson(delivery, payload),
      activity: runs.length > 1 ? { ...row, runIds: runs.map((r) => r.id) } : row,
      reservedFor: slot?.reservation ?? null,
    }));
  } catch (error) {
    slot?.release();
    throw error;
  }
  if (deduplicated) slot?.release();
  return { run: first, runs, duplicate: deduplicated, slot: deduplicated ? null : slot };
}

/**
 * A destination's run of the delivery: queued, or already succeeded for a workflow `none` without
 * a transform (nothing runs) while the destination is not paused. A `none` destination with a
 * transform is queued like the others: its transform runs when the run starts, and decides
 * `skipped` (null) or `succeeded`; a paused one's run waits queued like any other's.
 */
function newRun(
  delivery: Delivery,
  payload: unknown,
  createdAt: string,
  destination: DestinationConfig,
  orderingKey: string | null,
  paused: boolean,
): RunRecord & { trigger: unknown } {
  const immediate = destination.workflow.kind === "none" && !destination.transform && !paused;
  return {
    id: Bun.randomUUIDv7(),
    triggerId: delivery.trigger.id,
    requestId: delivery.requestId,
    status: immediate ? "succeeded" : "queued",
    trigger: payload,
    result: null,
    attempts: immediate ? 1 : 0,
    error: null,
    createdAt,
    finishedAt: immediate ? createdAt : null,
    replayOf: delivery.replayOf,
    orderingKey: immediate ? null : orderingKey,
    destination: destination.name,
  };
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
