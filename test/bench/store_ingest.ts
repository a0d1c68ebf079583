/**
 * `bun run test/bench/store_ingest.ts`: the SQLite store's CPU per accepted request, alone — one
 * `commitIngest` (dedup key + run with a 1 KB `$trigger` + Activity row), 50 in flight so group
 * commit batches them as under load. Reports CPU µs per ingest (user + system), which a busy
 * machine disturbs far less than wall time. The data dir is on tmpfs (/dev/shm) unless
 * STORE_BENCH_DIR says otherwise; N (20000) ingests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite/sqlite_store.ts";
import type { IngestRecord } from "../../src/records/ingest.ts";
import { sampleBody } from "./body.ts";

const dir = mkdtempSync(join(process.env.STORE_BENCH_DIR ?? "/dev/shm", "inlet-store-bench-"));
const store = new SqliteStore(join(dir, "inlet.sqlite"));
const body = JSON.parse(sampleBody(1024));
const n = Number(process.env.N ?? 20000);

function record(i: number): IngestRecord {
  const at = new Date().toISOString();
  const runId = Bun.randomUUIDv7();
  const requestId = crypto.randomUUID();
  return {
    dedup: { keyHash: new Bun.CryptoHasher("sha256").update(`delivery-${i}`).digest("hex"), windowSeconds: 86_400 },
    run: {
      id: runId,
      triggerId: "trg_bench",
      requestId,
      status: "succeeded",
      trigger: { body, headers: { "content-type": "application/json", "x-delivery-id": `d${i}` }, query: {}, method: "POST", receivedAt: at, requestId, triggerId: "trg_bench", app: null },
      result: null,
      attempts: 1,
      error: null,
      createdAt: at,
      finishedAt: at,
    },
    activity: { id: Bun.randomUUIDv7(), triggerId: "trg_bench", at, requestId, outcome: "run", runId, detail: null },
  };
}

try {
  const records = Array.from({ length: n }, (_, i) => record(i));
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i += 50) await Promise.all(records.slice(i, i + 50).map((r) => store.commitIngest(r)));
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - started;
  console.log(`${n} ingests: CPU ${((cpu.user + cpu.system) / n).toFixed(1)} µs each (user ${(cpu.user / n).toFixed(1)}, system ${(cpu.system / n).toFixed(1)}); wall ${((ms * 1000) / n).toFixed(1)} µs each`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
