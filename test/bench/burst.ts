/**
 * The burst on a fresh trigger (issue 23): a trigger created a moment ago, then 50 senders at
 * once for a few seconds, for each of three settings whose checks need the sandbox or its
 * stand-ins. The goal is no answer but 2xx: a busy trigger waits, it is never refused.
 *
 * `npm run bench` runs it (BENCH_ONLY="burst"); alone: `bun run test/bench/burst.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REDACTION_PATTERNS, SAMPLE_FILTER, sampleBody } from "./body.ts";
import { ensureWrk, load, UNIQUE_MARKER, type LoadResult } from "./wrk.ts";
import { startPinned } from "./processes.ts";

const ROOT = join(import.meta.dir, "..", "..");
const ADMIN = "bench-admin-token-0123456789abcdef";

/** The three settings of the burst, each on a trigger of its own created just before its load. */
export const BURST_SETTINGS: Array<{ name: string; settings: Record<string, unknown> }> = [
  { name: "filter + 10 redaction patterns", settings: { filter: SAMPLE_FILTER, redaction: { enabled: true, patterns: REDACTION_PATTERNS } } },
  {
    name: "JSON Schema with two patterns",
    settings: {
      schema: {
        enabled: true,
        document: {
          type: "object",
          required: ["id", "type", "data"],
          properties: {
            id: { type: "string", pattern: "^evt_[A-Za-z0-9_]+$" },
            type: { type: "string", pattern: "^[a-z]+\\.[a-z_.]+$" },
            data: { type: "object" },
          },
        },
      },
    },
  },
  {
    name: "filter using match()",
    settings: { filter: { enabled: true, mode: "include", expression: 'match($.data.object.customer_email, ".*@example\\\\.com")' } },
  },
];

export interface BurstRow {
  name: string;
  result: LoadResult;
}

/** Each setting on a fresh trigger of the server at `base`: created, then loaded at once. */
export async function burst(base: string, options: { seconds: number; connections: number }): Promise<BurstRow[]> {
  const body = sampleBody(1024).replace('"evt_', `"evt_${UNIQUE_MARKER}_`);
  const rows: BurstRow[] = [];
  for (const { name, settings } of BURST_SETTINGS) {
    const created = await fetch(`${base}/api/triggers`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: `burst ${name}`, ...settings }),
    });
    if (created.status !== 201) throw new Error(`burst ${name}: ${created.status} ${await created.text()}`);
    const trigger = (await created.json()) as { url: string };
    const result = await load(trigger.url, {
      seconds: options.seconds,
      connections: options.connections,
      body,
      headers: { "Content-Type": "application/json" },
    });
    rows.push({ name, result });
    process.stderr.write(`burst, ${name}: ${result.requests} requests, ${result.non2xx} non-2xx, p50 ${result.p50ms} ms, p99 ${result.p99ms} ms\n`);
  }
  return rows;
}

/** The README's table of a burst. */
export function burstTable(rows: BurstRow[], options: { seconds: number; connections: number }): string[] {
  return [
    "",
    `Burst on a fresh trigger: the trigger created, then at once wrk -t1 -c${options.connections} -d${options.seconds}s (server on core 1, wrk on core 0), one fresh server:`,
    "",
    "| trigger's settings | requests | non-2xx | req/s | p50 ms | p99 ms |",
    "|---|---|---|---|---|---|",
    ...rows.map(({ name, result: r }) => `| ${name} | ${r.requests} | ${r.non2xx} | ${Math.round(r.rps)} | ${r.p50ms} | ${r.p99ms} |`),
  ];
}

/** Starts a fresh server on its own data dir, runs the burst, stops it. */
export async function burstOnFreshServer(options: { seconds: number; connections: number }): Promise<BurstRow[]> {
  ensureWrk();
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-bench-burst-"));
  const { url, proc } = await startPinned(
    [process.execPath, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", dataDir, "--log-requests", "false"],
    { INLET_ADMIN_TOKEN: ADMIN },
    /inlet listening on (http:\/\/\S+)/,
    ROOT,
  );
  try {
    return await burst(url, options);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const options = { seconds: Number(process.env.BENCH_SECONDS ?? 3), connections: Number(process.env.BENCH_CONNECTIONS ?? 50) };
  console.log(burstTable(await burstOnFreshServer(options), options).join("\n"));
}
