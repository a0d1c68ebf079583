import type { ActivityRecord } from "../../src/records/activity.ts";
import type { RunRecord } from "../../src/records/run.ts";
import type { TriggerConfig } from "../../src/records/trigger.ts";
import type { Store, StoredTrigger } from "../../src/store/store.ts";

/** Opens a fresh, empty store (one file or one database per call); `sweepChunk` as the store's option. */
export type OpenStore = (options?: { sweepChunk?: number }) => Promise<Store>;

const config = (id: string, token = `tok-${id}`): TriggerConfig => ({
  id,
  token,
  name: id,
  app: null,
  methods: ["POST"],
  auth: { type: "bearer", signatureHeader: "X-Signature", encoding: "hex" },
  dedup: { strategy: "payload-hash", windowSeconds: 60 },
  filter: { enabled: false, mode: "include" },
  redaction: { enabled: false, patterns: [] },
  response: { mode: "immediate", timeoutMs: 10000 },
  workflow: { kind: "none" },
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
});

export const trigger = (id: string): StoredTrigger => ({ config: config(id), secretSealed: "v1:sealed", appSecretSealed: null });

export const activity = (triggerId: string, at = new Date(), outcome: ActivityRecord["outcome"] = "run", runId: string | null = null): ActivityRecord => ({
  id: Bun.randomUUIDv7(),
  triggerId,
  at: at.toISOString(),
  requestId: crypto.randomUUID(),
  outcome,
  runId,
  detail: null,
});

export const run = (triggerId: string, at = new Date()): RunRecord & { trigger: unknown } => ({
  id: Bun.randomUUIDv7(),
  triggerId,
  requestId: crypto.randomUUID(),
  status: "succeeded",
  trigger: { body: { n: 1 } },
  result: null,
  attempts: 1,
  error: null,
  createdAt: at.toISOString(),
  finishedAt: at.toISOString(),
});
