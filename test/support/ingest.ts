/**
 * In-process fixtures for the ingest stages' own tests: a trigger record with defaults, an
 * arrival for a request, and an in-memory store with the three calls the pipeline makes.
 */
import type { Arrival } from "../../src/ingest/arrival.ts";
import type { IngestStore } from "../../src/ingest/pipeline.ts";
import type { ActivityRecord } from "../../src/records/activity.ts";
import type { IngestRecord } from "../../src/records/ingest.ts";
import type { RunRecord } from "../../src/records/run.ts";
import type { TriggerRecord } from "../../src/records/trigger.ts";

export function triggerRecord(overrides: Partial<TriggerRecord> = {}): TriggerRecord {
  const at = "2026-01-01T00:00:00.000Z";
  return {
    id: "trg_1",
    token: "tok_1",
    name: "orders",
    app: null,
    methods: ["POST"],
    auth: { type: "none", signatureHeader: "X-Signature", encoding: "hex" },
    dedup: { strategy: "disabled" },
    filter: { enabled: false, mode: "include", expression: "" },
    redaction: { enabled: false, patterns: [] },
    response: { mode: "immediate", timeoutMs: 10_000 },
    workflow: { kind: "none" },
    createdAt: at,
    updatedAt: at,
    secret: null,
    appSecret: null,
    previous: null,
    ...overrides,
  };
}

export function arrivalOf(trigger: TriggerRecord, init: RequestInit & { query?: string } = {}, now = new Date("2026-02-01T12:00:00.000Z")): Arrival {
  const query = init.query ?? "";
  const request = new Request(`http://inlet.test/webhooks/${trigger.token}${query}`, { method: "POST", ...init });
  return { trigger, requestId: crypto.randomUUID(), now, method: request.method.toUpperCase(), headers: request.headers, query, request, reportOnly: {} };
}

/** The store calls of the ingest path, in memory: dedup keys with windows, runs, Activity. */
export class MemoryIngestStore implements IngestStore {
  readonly keys = new Map<string, number>();
  readonly activity: ActivityRecord[] = [];
  readonly runs: Array<RunRecord & { trigger: unknown }> = [];
  readonly commits: IngestRecord[] = [];

  async hasDedupKey(triggerId: string, keyHash: string, now: Date): Promise<boolean> {
    const expires = this.keys.get(`${triggerId}\u0000${keyHash}`);
    return expires !== undefined && expires > now.getTime();
  }

  async commitIngest(record: IngestRecord): Promise<{ deduplicated: boolean }> {
    this.commits.push(record);
    const now = new Date(record.activity.at);
    if (record.dedup) {
      if (await this.hasDedupKey(record.activity.triggerId, record.dedup.keyHash, now)) {
        this.activity.push({ ...record.activity, outcome: "deduplicated", runId: null, detail: null });
        return { deduplicated: true };
      }
      this.keys.set(`${record.activity.triggerId}\u0000${record.dedup.keyHash}`, now.getTime() + record.dedup.windowSeconds * 1000);
    }
    if (record.run) this.runs.push(record.run, ...(record.fanOut ?? []));
    this.activity.push(record.activity);
    return { deduplicated: false };
  }

  async recordActivity(row: ActivityRecord): Promise<void> {
    this.activity.push(row);
  }

  /** Counted rows by trigger, outcome, minute and reason (what the stores' unique index keys them by). */
  private readonly counted = new Map<string, ActivityRecord>();

  async countActivity(row: ActivityRecord): Promise<void> {
    const key = [row.triggerId, row.outcome, Math.floor(Date.parse(row.at) / 60_000), row.detail ?? ""].join("\u0000");
    const first = this.counted.get(key);
    if (first) first.count = (first.count ?? 1) + (row.count ?? 1);
    else {
      const counted = { ...row, count: row.count ?? 1 };
      this.counted.set(key, counted);
      this.activity.push(counted);
    }
  }
}
