/**
 * Delivery to several destinations (issue 25), on a server of its own:
 *
 * - **Fan-out**: immediate acks under wrk to a trigger with one http destination, then to one with
 *   three (concurrency 8 each), all to the local target (test/bench/target_server.ts, on core 0
 *   with wrk). For each: acks/s, and runs delivered per second under the load, while the backlog
 *   drains, and end to end (every run of every acknowledged request, from the load's start to the
 *   last delivery); then the ratio of three destinations to one.
 * - **Isolation**: a trigger whose destination `neighbour` never gets an answer (a target path that
 *   hangs; breaker off, so nothing holds its runs back but its concurrency) while its runs pile up,
 *   and whose other destination `fine` answers at once: how long after a request is sent its
 *   `fine` run reaches the target, p50/p99 over N requests sent at a steady rate. Beside it the same
 *   with a neighbour that answers at once. The target runs in this process, so the two instants
 *   are read on one clock.
 *
 * `npm run bench` runs it (BENCH_ONLY="destinations"); alone: `bun run test/bench/destinations.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleBody } from "./body.ts";
import { ensureWrk, load, type LoadResult } from "./wrk.ts";
import { startPinned } from "./processes.ts";

const ROOT = join(import.meta.dir, "..", "..");
const ADMIN = "bench-admin-token-0123456789abcdef";
const json = { "Content-Type": "application/json" };
/** Each fan-out destination's concurrency: enough that the server's run concurrency (8) is the bound. */
const FAN_OUT_CONCURRENCY = 8;
/** Isolation: requests a second while measuring, and the backlog the neighbour has before. */
const ISOLATION_RATE = 40;
const ISOLATION_BACKLOG = 100;

export interface FanOutRow {
  destinations: number;
  acks: LoadResult;
  runs: number;
  runsPerSecondUnderLoad: number;
  runsPerSecondDraining: number;
  runsPerSecondEndToEnd: number;
}

export interface IsolationRow {
  neighbour: "answers at once" | "hangs";
  requests: number;
  p50ms: number;
  p99ms: number;
  maxMs: number;
  /** The neighbour's runs when the measurement ended. */
  neighbourQueued: number;
  neighbourRunning: number;
}

export interface DestinationsResult {
  fanOut: FanOutRow[];
  isolation: IsolationRow[];
}

interface Options {
  seconds: number;
  connections: number;
}

async function createTrigger(base: string, input: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const r = await fetch(`${base}/api/triggers`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN}`, ...json }, body: JSON.stringify(input) });
  if (r.status !== 201) throw new Error(`destinations bench: creating ${JSON.stringify(input.name)}: ${r.status} ${await r.text()}`);
  return (await r.json()) as { id: string; url: string };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round2 = (ms: number) => Math.round(ms * 100) / 100;

/**
 * One fan-out case: wrk for `seconds`, runs counted at the target between 1 s after the start and
 * 1 s before the end (the steady part), then until every acknowledged request's runs arrived.
 */
async function fanOut(base: string, targetUrl: string, destinations: number, options: Options, body: string): Promise<FanOutRow> {
  const deliveries = async () => ((await (await fetch(`${targetUrl}/count`)).json()) as { deliveries: number }).deliveries;
  const trigger = await createTrigger(base, {
    name: `bench-fan-out-${destinations}`,
    destinations: Array.from({ length: destinations }, (_, i) => ({
      name: `d${i + 1}`,
      workflow: { kind: "http", url: `${targetUrl}/d${i + 1}` },
      concurrency: FAN_OUT_CONCURRENCY,
    })),
  });
  const before = await deliveries();
  const started = performance.now();
  const window = Math.max(1, options.seconds - 2);
  const acking = load(trigger.url, { seconds: options.seconds, connections: options.connections, body, headers: json });
  await Bun.sleep(1000);
  const c1 = await deliveries();
  await Bun.sleep(window * 1000);
  const c2 = await deliveries();
  const acks = await acking;
  if (acks.non2xx > 0) throw new Error(`fan-out to ${destinations}: ${acks.non2xx} non-2xx answers`);
  const loadEnded = performance.now();
  const atLoadEnd = await deliveries();
  // Requests in flight when wrk stopped may have been committed without being counted: wait for
  // at least the counted ones' runs, then until nothing more arrives for a second.
  const expected = before + acks.requests * destinations;
  let last = atLoadEnd;
  let lastChange = loadEnded;
  for (const deadline = loadEnded + 600_000; performance.now() < deadline; ) {
    await Bun.sleep(100);
    const now = await deliveries();
    if (now !== last) [last, lastChange] = [now, performance.now()];
    else if (now >= expected && performance.now() - lastChange > 1000) break;
  }
  if (last < expected) throw new Error(`fan-out to ${destinations}: ${expected - before} runs expected, ${last - before} delivered`);
  const row: FanOutRow = {
    destinations,
    acks,
    runs: last - before,
    runsPerSecondUnderLoad: (c2 - c1) / window,
    runsPerSecondDraining: (last - atLoadEnd) / ((lastChange - loadEnded) / 1000),
    runsPerSecondEndToEnd: (last - before) / ((lastChange - started) / 1000),
  };
  process.stderr.write(
    `destinations, fan-out to ${destinations}: ${Math.round(acks.rps)} acks/s, ${row.runs} runs, ${Math.round(row.runsPerSecondUnderLoad)} runs/s under load, ` +
      `${Math.round(row.runsPerSecondDraining)} draining, ${Math.round(row.runsPerSecondEndToEnd)} end to end\n`,
  );
  return row;
}

/** A target in this process: `/hang` never answers; `/fine` notes when each request's run arrived (by its `i`). */
function isolationTarget() {
  const received = new Map<number, number>();
  const arrived = new Set<() => void>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/hang") return new Promise<Response>(() => {});
      const run = (await request.json()) as { body: { i: number } };
      if (path === "/fine") {
        received.set(run.body.i, performance.now());
        for (const wake of arrived) wake();
      }
      return new Response("ok");
    },
  });
  /** Resolves once `n` requests of `/fine` have arrived, or rejects after `ms`. */
  const untilReceived = (n: number, ms: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        arrived.delete(check);
        reject(new Error(`isolation: ${received.size} of ${n} runs arrived within ${ms} ms`));
      }, ms);
      const check = () => {
        if (received.size < n) return;
        clearTimeout(timer);
        arrived.delete(check);
        resolve();
      };
      arrived.add(check);
      check();
    });
  return { url: `http://127.0.0.1:${server.port}`, received, untilReceived, stop: () => server.stop(true) };
}

/**
 * One isolation case: a backlog for the neighbour first (each of those requests makes a `fine` run
 * too, awaited), then `requests` sent every 1/ISOLATION_RATE s without waiting for each other;
 * each one's latency is from its sending to its `fine` run's arrival.
 */
async function isolation(base: string, neighbour: IsolationRow["neighbour"], requests: number): Promise<IsolationRow> {
  const target = isolationTarget();
  let trigger: { id: string; url: string } | undefined;
  try {
    trigger = await createTrigger(base, {
      name: `bench-isolation-${neighbour === "hangs" ? "hung" : "healthy"}`,
      destinations: [
        {
          name: "neighbour",
          workflow: { kind: "http", url: `${target.url}/${neighbour === "hangs" ? "hang" : "ok"}`, timeoutMs: 300_000, retry: { maxAttempts: 1 } },
          breaker: { failures: 0 },
        },
        { name: "fine", workflow: { kind: "http", url: `${target.url}/fine` } },
      ],
    });
    const url = trigger.url;
    const send = (i: number) => fetch(url, { method: "POST", headers: json, body: JSON.stringify({ i }) });
    for (let i = 0; i < ISOLATION_BACKLOG; i++) if ((await send(-1 - i)).status !== 200) throw new Error("isolation: a backlog request was not accepted");
    await target.untilReceived(ISOLATION_BACKLOG, 30_000);
    const sentAt = new Map<number, number>();
    const started = performance.now();
    const answers: Array<Promise<Response>> = [];
    for (let i = 0; i < requests; i++) {
      const due = started + (i * 1000) / ISOLATION_RATE;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      sentAt.set(i, performance.now());
      answers.push(send(i));
    }
    if ((await Promise.all(answers)).some((r) => r.status !== 200)) throw new Error("isolation: a request was not accepted");
    await target.untilReceived(ISOLATION_BACKLOG + requests, 60_000);
    const latencies = [...sentAt].map(([i, at]) => target.received.get(i)! - at).sort((a, b) => a - b);
    const states = (await (await fetch(`${base}/api/triggers/${trigger.id}/destinations`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()) as Array<{
      name: string;
      queued: number;
      running: number;
    }>;
    const n = states.find((s) => s.name === "neighbour")!;
    const row: IsolationRow = {
      neighbour,
      requests,
      p50ms: round2(percentile(latencies, 50)),
      p99ms: round2(percentile(latencies, 99)),
      maxMs: round2(latencies[latencies.length - 1]),
      neighbourQueued: n.queued,
      neighbourRunning: n.running,
    };
    process.stderr.write(
      `destinations, isolation (neighbour ${neighbour}): p50 ${row.p50ms} ms, p99 ${row.p99ms} ms, max ${row.maxMs} ms; neighbour ${n.queued} queued, ${n.running} running\n`,
    );
    return row;
  } finally {
    // Its runs (the hung ones too) go with it, so that they take no run slot from what follows.
    if (trigger) await fetch(`${base}/api/triggers/${trigger.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${ADMIN}` } });
    target.stop();
  }
}

/** Starts a fresh server (core 1) and the fan-out target (core 0), measures both parts, stops them. */
export async function destinationsOnFreshServer(options: Options): Promise<DestinationsResult> {
  ensureWrk();
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-bench-destinations-"));
  const server = await startPinned(
    [process.execPath, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", dataDir, "--log-requests", "false"],
    { INLET_ADMIN_TOKEN: ADMIN },
    /inlet listening on (http:\/\/\S+)/,
    ROOT,
  );
  const target = await startPinned([process.execPath, "run", "test/bench/target_server.ts"], {}, /target listening on (http:\/\/\S+)/, ROOT, "0");
  try {
    // Isolation first, on a store still small: the fan-out leaves tens of thousands of runs (and
    // their write-back) that would weigh on a latency measured after it.
    const requests = ISOLATION_RATE * Math.max(5, options.seconds);
    const isolationRows = [await isolation(server.url, "answers at once", requests), await isolation(server.url, "hangs", requests)];
    const body = sampleBody(1024);
    const fanOutRows = [await fanOut(server.url, target.url, 1, options, body), await fanOut(server.url, target.url, 3, options, body)];
    return { fanOut: fanOutRows, isolation: isolationRows };
  } finally {
    target.proc.kill();
    server.proc.kill("SIGTERM");
    await server.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The README's tables of the destinations bench. */
export function destinationsTable(result: DestinationsResult, options: Options): string[] {
  const [one, three] = [result.fanOut.find((r) => r.destinations === 1), result.fanOut.find((r) => r.destinations === 3)];
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? (a / b).toFixed(2) : "–");
  return [
    "",
    `Destinations, on a fresh server (run concurrency 8, core 1). Fan-out: immediate acks under wrk -t1 -c${options.connections} -d${options.seconds}s (core 0) to a trigger ` +
      `with 1, then 3 http destinations (concurrency ${FAN_OUT_CONCURRENCY} each) on the local target (core 0); runs counted where they arrive, under the load ` +
      "(its steady part), while the backlog drains, and end to end (every run of every acknowledged request, from the load's start to the last arrival):",
    "",
    "| destinations | acks/s | runs | runs/s under load | runs/s draining | runs/s end to end | requests delivered/s end to end |",
    "|---|---|---|---|---|---|---|",
    ...result.fanOut.map(
      (r) =>
        `| ${r.destinations} | ${Math.round(r.acks.rps)} | ${r.runs} | ${Math.round(r.runsPerSecondUnderLoad)} | ${Math.round(r.runsPerSecondDraining)} | ${Math.round(r.runsPerSecondEndToEnd)} | ${Math.round(r.runsPerSecondEndToEnd / r.destinations)} |`,
    ),
    "",
    `3 destinations ÷ 1: acks/s ${ratio(three?.acks.rps, one?.acks.rps)}, runs/s end to end ${ratio(three?.runsPerSecondEndToEnd, one?.runsPerSecondEndToEnd)}, ` +
      `requests delivered/s ${ratio(three && three.runsPerSecondEndToEnd / 3, one?.runsPerSecondEndToEnd)}.`,
    "",
    `Isolation: a trigger with two http destinations, \`neighbour\` (breaker off) and \`fine\` (defaults: concurrency 2); ${ISOLATION_BACKLOG} requests first, then ` +
      `${result.isolation[0]?.requests ?? "N"} at ${ISOLATION_RATE} a second; latency = from sending a request to its \`fine\` run's arrival at the target (the request's own commit included):`,
    "",
    "| neighbour | requests | p50 ms | p99 ms | max ms | neighbour's runs at the end |",
    "|---|---|---|---|---|---|",
    ...result.isolation.map(
      (r) =>
        `| ${r.neighbour === "hangs" ? "hangs (never answers)" : r.neighbour} | ${r.requests} | ${r.p50ms} | ${r.p99ms} | ${r.maxMs} | ${r.neighbourQueued} queued, ${r.neighbourRunning} running |`,
    ),
  ];
}

if (import.meta.main) {
  const options = { seconds: Number(process.env.BENCH_SECONDS ?? 5), connections: Number(process.env.BENCH_CONNECTIONS ?? 50) };
  console.log(destinationsTable(await destinationsOnFreshServer(options), options).join("\n"));
}
