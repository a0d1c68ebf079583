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
import { acceptedRecord } from "./accepted_record.ts";
import { sampleBody } from "./body.ts";

const dir = mkdtempSync(join(process.env.STORE_BENCH_DIR ?? "/dev/shm", "inlet-store-bench-"));
const store = new SqliteStore(join(dir, "inlet.sqlite"));
const body = JSON.parse(sampleBody(1024));
const n = Number(process.env.N ?? 20000);

const record = (i: number) => acceptedRecord("trg_bench", `delivery-${i}`, body, { "content-type": "application/json", "x-delivery-id": `d${i}` });

try {
  const records = Array.from({ length: n }, (_, i) => record(i));
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i += 50) await Promise.all(records.slice(i, i + 50).map((r) => store.commitIngest(r)));
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - started;
  console.log(
    `${n} ingests: CPU ${((cpu.user + cpu.system) / n).toFixed(1)} µs each (user ${(cpu.user / n).toFixed(1)}, system ${(cpu.system / n).toFixed(1)}); wall ${((ms * 1000) / n).toFixed(1)} µs each`,
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
