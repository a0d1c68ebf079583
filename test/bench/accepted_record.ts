import type { IngestRecord } from "../../src/records/ingest.ts";

/**
 * What an accepted request of issue 13's configuration commits (workflow none): its dedup key
 * (the SHA-256 of `deliveryId`, a day's window), a succeeded run whose `$trigger` holds `body`
 * and `headers`, and the Activity row. For the benches that drive the store without inlet's
 * request path (store_ingest.ts, store_floor_server.ts).
 */
export function acceptedRecord(triggerId: string, deliveryId: string, body: unknown, headers: Record<string, string>): IngestRecord {
  const at = new Date().toISOString();
  const requestId = crypto.randomUUID();
  const runId = Bun.randomUUIDv7();
  return {
    dedup: { keyHash: new Bun.CryptoHasher("sha256").update(deliveryId).digest("hex"), windowSeconds: 86_400 },
    run: {
      id: runId,
      triggerId,
      requestId,
      status: "succeeded",
      trigger: { body, headers, query: {}, method: "POST", receivedAt: at, requestId, triggerId, app: null },
      result: null,
      attempts: 1,
      error: null,
      createdAt: at,
      finishedAt: at,
    },
    activity: { id: Bun.randomUUIDv7(), triggerId, at, requestId, outcome: "run", runId, detail: null },
  };
}
