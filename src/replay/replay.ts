import { DEFAULT_DESTINATION, destinationsOf } from "../records/destination.ts";
import type { Delivery } from "../ingest/delivery.ts";
import type { Ending } from "../ingest/ending.ts";
import type { ReplayQuery } from "../records/ingest.ts";
import type { RunRecord } from "../records/run.ts";
import type { History } from "../store/history.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import type { BulkReplay } from "./replay_input.ts";

/** What replay needs of the server: the stored requests, the triggers, and the pipeline's entry after deduplication. */
export interface ReplayDeps {
  store: History;
  triggers: { get(id: string): TriggerRecord | undefined };
  deliver(delivery: Delivery, options: { filter: "apply" | "skip"; destinations?: readonly string[] }): Promise<Ending>;
  now?(): Date;
}

/** How one replay ended; a refusal carries the status and a message that says why. */
export type ReplayResult = { kind: "run"; run: RunRecord } | { kind: "filtered" } | { kind: "refused"; status: 404 | 409 | 500; error: string };

/** The `$trigger` a run or a filtered request kept. */
interface StoredPayload {
  body: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | string[]>;
  method?: string;
  /** Where the trigger's checks only reported when the request arrived (README "Report-only rollout"). */
  auth?: NonNullable<Delivery["reportOnly"]>["auth"];
  sources?: NonNullable<Delivery["reportOnly"]>["sources"];
  receivedAt?: string;
  app?: Delivery["app"];
  files?: Delivery["files"];
}

const PAGE = 200;

/**
 * Replay (docs/api.md#replay): a stored request re-enters the pipeline after deduplication —
 * authentication and deduplication are not applied again; the current filter (for filtered
 * requests, unless skipped), the current redaction and the current workflow are. The new run
 * keeps the original `requestId` and goes through the same queue as live runs (behind them).
 */
export class Replay {
  constructor(private readonly deps: ReplayDeps) {}

  /** A new run with the same `$trigger` as run `runId`, run by its trigger's current workflow. */
  async run(runId: string): Promise<ReplayResult> {
    const original = await this.deps.store.getRun(runId);
    if (!original) return refused(404, "run not found");
    const trigger = this.deps.triggers.get(original.triggerId);
    if (!trigger) return refused(404, "the run's trigger no longer exists");
    // A run is replayed to its own destination only (README "Destinations").
    const destination = original.destination ?? DEFAULT_DESTINATION;
    if (!destinationsOf(trigger).some((d) => d.name === destination))
      return refused(409, `the run's destination ${JSON.stringify(destination)} is no longer one of the trigger's`);
    return this.replay(trigger, original.trigger as StoredPayload, original, "skip", 0, [destination]);
  }

  /** A filtered request again: the current filter decides (unless skipped), then a run. */
  async filtered(triggerId: string, activityId: string, filter: "apply" | "skip"): Promise<ReplayResult> {
    const trigger = this.deps.triggers.get(triggerId);
    if (!trigger) return refused(404, "trigger not found");
    const row = await this.deps.store.getActivity(activityId);
    if (!row || row.triggerId !== triggerId) return refused(404, "Activity row not found");
    if (row.outcome !== "filtered")
      return refused(409, `only Filtered requests can be replayed; this one was ${row.outcome} (replay its run instead, if it has one)`);
    if (row.request === undefined) return refused(409, "this Filtered request was recorded before inlet kept filtered requests, so there is nothing to replay");
    return this.replay(trigger, row.request as StoredPayload, row, filter);
  }

  /**
   * Every matching run or filtered request of a trigger, oldest first, up to `limit`; `dryRun`
   * only counts. The store selects one row per request, its latest attempt (store/replay_where.ts),
   * so the count and the replay go over the same requests (a filtered request the current filter
   * skips again is counted in `matched`, not in `replayed`).
   */
  async bulk(triggerId: string, input: BulkReplay): Promise<{ matched: number; replayed: number; runIds: string[] } | ReplayResult> {
    const trigger = this.deps.triggers.get(triggerId);
    if (!trigger) return refused(404, "trigger not found");
    // Runs this call creates are newer than `startMs`: they are never selected again.
    const startMs = this.now().getTime();
    const query: ReplayQuery = {
      triggerId,
      source: input.source,
      statuses: input.status,
      ...(input.source === "runs" && input.destinations ? { destinations: input.destinations } : {}),
      ...(input.sinceMs === undefined ? {} : { sinceMs: input.sinceMs }),
      untilMs: Math.min(input.untilMs ?? startMs, startMs),
    };
    const matched = await this.deps.store.countReplayable(query);
    if (input.dryRun) return { matched, replayed: 0, runIds: [] };
    const filter = input.source === "runs" ? "skip" : input.filter;
    const runIds: string[] = [];
    for (let after = 0, due = Math.min(matched, input.limit); due > 0; ) {
      const page = await this.deps.store.listReplayable(query, after, Math.min(PAGE, due));
      if (page.length === 0) break;
      after = page[page.length - 1].seq;
      due -= page.length;
      // One page at a time, committed together by the store's grouped commit; between pages the
      // event loop serves live requests, so a large replay never holds the request thread.
      // A run goes back to its own destination; a filtered request to those named (else every one its filters choose).
      const results = await Promise.all(
        page.map((c) => this.replay(trigger, c.trigger as StoredPayload, c, filter, startMs, c.destination ? [c.destination] : input.destinations)),
      );
      for (const result of results) if (result.kind === "run") runIds.push(result.run.id);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { matched, replayed: runIds.length, runIds };
  }

  /**
   * `original` is the run or Activity row replayed. The replay takes its row's request id (not the
   * payload's, which a hand-edited or old row may lack): the store relates a request's rows by it.
   */
  private async replay(
    trigger: TriggerRecord,
    payload: StoredPayload,
    original: { id: string; requestId: string },
    filter: "apply" | "skip",
    notBefore = 0,
    destinations?: readonly string[],
  ): Promise<ReplayResult> {
    const now = new Date(Math.max(this.now().getTime(), notBefore + 1));
    const ending = await this.deps.deliver(
      {
        trigger,
        requestId: original.requestId,
        now,
        receivedAt: payload.receivedAt ?? now.toISOString(),
        method: payload.method ?? "POST",
        headers: payload.headers ?? {},
        query: payload.query ?? {},
        body: payload.body,
        ...(payload.files ? { files: payload.files } : {}),
        bodyJson: null,
        app: payload.app ?? null,
        claim: null,
        replayOf: original.id,
        // The replayed `$trigger` still says what the checks found when the request arrived.
        ...(payload.auth || payload.sources
          ? { reportOnly: { ...(payload.auth ? { auth: payload.auth } : {}), ...(payload.sources ? { sources: payload.sources } : {}) } }
          : {}),
      },
      { filter, ...(destinations ? { destinations } : {}) },
    );
    if (ending.run) return { kind: "run", run: ending.run };
    if (ending.outcome === "filtered") return { kind: "filtered" };
    return refused(500, ending.detail ?? `the replay ended as ${ending.outcome}`);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}

function refused(status: 404 | 409 | 500, error: string): ReplayResult {
  return { kind: "refused", status, error };
}
