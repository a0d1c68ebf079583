/**
 * `npx bun test/bench/profile.ts [1k|64k] [plain]`: a CPU profile of the server under issue 13's full
 * configuration (HMAC, header-value dedup, include filter, 10 redaction patterns, workflow none).
 * The server runs with `bun --cpu-prof-md`, pinned to core 1, loaded by wrk on core 0 for
 * BENCH_SECONDS (10); the profile (markdown, hottest functions first) lands in
 * .bench/profile-<size>[-plain].md. PROFILE_OFF=1: no profiler, the server's CPU per request
 * instead (from /proc); PROFILE_TMP=/dev/shm: the data dir on tmpfs (no disk cost);
 * PROFILE_NO_STORE=1: accepted requests are not stored at all (the request path alone).
 * PROFILE_CONNECTIONS=200: wrk's connections (50): how much of a cost is per batch, not per request.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHmac } from "node:crypto";
import { FULL_CONFIGURATION, sampleBody } from "./body.ts";
import { cpuMs, startPinned } from "./processes.ts";
import { ensureWrk, load, UNIQUE_MARKER } from "./wrk.ts";

const ROOT = join(import.meta.dir, "..", "..");
const size = process.argv[2] === "64k" ? "64k" : "1k";
// `plain` (third argument): a trigger with no settings at all, every body new (the bench's
// "no pre-execution settings" case) instead of the full configuration.
const plain = process.argv[3] === "plain";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.PROFILE_CONNECTIONS ?? 50);
const ADMIN = "bench-admin-token-0123456789abcdef";

ensureWrk();
// PROFILE_TMP=/dev/shm puts the data dir on tmpfs: what is left without the cost of fsync.
const dataDir = mkdtempSync(join(process.env.PROFILE_TMP ?? tmpdir(), "inlet-profile-"));
const profDir = mkdtempSync(join(tmpdir(), "inlet-profile-out-"));
// PROFILE_OFF=1: no profiler (the server's pid is printed, e.g. to read per-thread CPU from /proc).
const profiling = !process.env.PROFILE_OFF;
// PROFILE_NO_STORE=1: commitIngest stores nothing (test/bench/no_store_preload.ts): the request path alone.
const noStore = process.env.PROFILE_NO_STORE ? ["--preload", "./test/bench/no_store_preload.ts"] : [];
const command = [
  process.execPath,
  ...(profiling ? ["--cpu-prof-md", `--cpu-prof-dir=${profDir}`] : []),
  "run",
  ...noStore,
  "src/main.ts",
  "serve",
  "--port",
  "0",
  "--data-dir",
  dataDir,
  "--log-requests",
  "false",
];
const { url: base, proc } = await startPinned(command, { INLET_ADMIN_TOKEN: ADMIN }, /inlet listening on (http:\/\/\S+)/, ROOT);
try {
  console.log(`server pid ${proc.pid}`);
  const admin = { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" };
  const created = await fetch(`${base}/api/triggers`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify(plain ? { name: "profile-plain" } : { name: "profile-full", ...FULL_CONFIGURATION }),
  });
  const trigger = (await created.json()) as { id: string; url: string };
  const secret = ((await (await fetch(`${base}/api/triggers/${trigger.id}/secret`, { headers: admin })).json()) as { secret: string }).secret;
  const sample = sampleBody(size === "64k" ? 64 * 1024 : 1024);
  const body = plain ? sample.replace('"evt_', `"evt_${UNIQUE_MARKER}_`) : sample;
  const headers: Record<string, string> = plain
    ? { "Content-Type": "application/json" }
    : {
        "Content-Type": "application/json",
        "X-Signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
        "X-Delivery-Id": `dlv_${UNIQUE_MARKER}`,
      };
  await load(trigger.url, { seconds: 2, connections, body, headers });
  const cpu0 = cpuMs(proc.pid);
  const r = await load(trigger.url, { seconds, connections, body, headers });
  const cpu1 = cpuMs(proc.pid);
  const usedMs = cpu1.self - cpu0.self;
  const perRequest = (ms: number) => ((ms * 1000) / r.requests).toFixed(1);
  // CPU per request (every thread of the server): what a busy machine disturbs least.
  console.log(
    `${size}: ${Math.round(r.rps)} req/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms, non-2xx ${r.non2xx}; server CPU ${perRequest(usedMs)} µs per request (user ${perRequest(cpu1.user - cpu0.user)}, system ${perRequest(cpu1.system - cpu0.system)})`,
  );
} finally {
  proc.kill("SIGTERM");
  await proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
if (!profiling) process.exit(0);
const written = readdirSync(profDir).filter((f) => f.endsWith(".md"));
if (written.length === 0) throw new Error(`no profile written in ${profDir}`);
mkdirSync(join(ROOT, ".bench"), { recursive: true });
const out = join(ROOT, ".bench", `profile-${size}${plain ? "-plain" : ""}.md`);
renameSync(join(profDir, written[0]), out);
rmSync(profDir, { recursive: true, force: true });
console.log(`profile: ${out}`);
