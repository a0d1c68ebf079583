/**
 * `npm run bench`: load benchmarks measured in one run against a bare Bun.serve baseline, so the
 * ratios hold on a noisy machine. Server pinned to core 1, wrk to core 0 (README "Performance").
 *
 * Cases: the bare baseline; the floor of the storage design (test/bench/store_floor_server.ts: the
 * bare handler committing what an accepted request commits, through inlet's SQLite store) and of
 * any durable design (test/bench/log_floor_server.ts: an fsync'd append of the body); the ceiling
 * of inlet's own request path (the full configuration on a server whose commit stores nothing,
 * test/bench/no_store_preload.ts); inlet
 * acknowledging durably with group commit and, in the same round,
 * with one transaction per request (a second server started with the benchmark knob
 * INLET_GROUP_COMMIT=0); HMAC auth; then, once, end to end: a workflow-response-mode trigger
 * (each request waits for its http run: req/s = runs/s), and immediate acks with an http
 * workflow, counting the runs the target receives over fixed windows (under load, then draining).
 * The shared store (test/bench/postgres.ts): two instances on one durable PostgreSQL database,
 * loaded at once by two wrk processes, and one instance alone, each with its ratio to inlet on
 * SQLite ("inlet, auth none") in the same round; afterwards the runs in the database are counted
 * against the 2xx answers wrk saw. A command per request in workflow response mode beside
 * adnanh/webhook doing the same and a bare Bun.spawn server (test/bench/commands.ts), with the
 * ratios to webhook and each server's CPU per request. The burst on a fresh trigger
 * (test/bench/burst.ts): 50 senders at once on triggers created a moment before, on a server of
 * its own, counting every answer that is not 2xx. Destinations (test/bench/destinations.ts), on a
 * server of their own: runs/s of a fan-out to three destinations beside one, and how soon a
 * destination's run starts while another destination's target hangs.
 *
 * Env: BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50), BENCH_ONLY (case names separated by ";"; "end to end", "burst" and "destinations" for those;
 * a PostgreSQL case brings "inlet, auth none" along for its ratio), BENCH_CPU_PROF (a directory: the
 * inlet server that serves the SQLite and command cases writes a markdown CPU profile there).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHmac } from "node:crypto";
import { FULL_CONFIGURATION, REDACTION_PATTERNS, SAMPLE_FILTER, sampleBody } from "./body.ts";
import { postgresBinDir } from "../support/postgres.ts";
import { startPostgresBench, waitUntilKnown, type PostgresBench } from "./postgres.ts";
import { ensureWrk, load, loadSplit, UNIQUE_MARKER, type LoadResult } from "./wrk.ts";
import { commandCases, commandCasesWanted } from "./commands.ts";
import { burstOnFreshServer, burstTable } from "./burst.ts";
import { destinationsOnFreshServer, destinationsTable } from "./destinations.ts";
import { cpuMs, startPinned as startServer } from "./processes.ts";

const ROOT = join(import.meta.dir, "..", "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_ONLY?.split(";").map((s) => s.trim());
const ADMIN = "bench-admin-token-0123456789abcdef";
const SQLITE_CASE = "inlet, auth none";
const BARE = "bare Bun.serve (baseline)";
const BARE_64K = "bare Bun.serve, 64 KB (baseline)";
const FULL_1K = "inlet 1 KB, hmac + header-value dedup + filter + 10 patterns";
// What inlet's storage design costs alone: bare Bun.serve committing what FULL_1K commits (test/bench/store_floor_server.ts).
const STORE_FLOOR = "floor: bare Bun.serve + inlet's SQLite store (dedup key, run, Activity row)";
// What a 200 that means "on disk" costs at the least, whatever the store: an fsync'd append (test/bench/log_floor_server.ts).
const LOG_FLOOR = "floor: bare Bun.serve + an fsync'd append of the body (no store)";
// What FULL_1K costs with a store that costs nothing: the same server with commitIngest a no-op (test/bench/no_store_preload.ts).
const PATH_CEILING = "ceiling: inlet 1 KB, the same configuration, nothing stored";
const FULL_64K = "inlet 64 KB, hmac + header-value dedup + filter + 10 patterns";
const PG_ONE = "postgres one instance";
const PG_TWO = "postgres two instances";
const pgNamed = only !== undefined && (only.includes(PG_ONE) || only.includes(PG_TWO));
if (pgNamed && !postgresBinDir()) throw new Error("the PostgreSQL cases need Debian's postgresql package (apt-get install postgresql)");
// Without PostgreSQL installed, the full bench runs the other cases and says it left these out.
const pgWanted = (only === undefined || pgNamed) && postgresBinDir() !== null;
if (only === undefined && !pgWanted) process.stderr.write("PostgreSQL not installed (apt-get install postgresql): the shared-store cases are left out\n");

/** Undone in reverse order at the end, on failure too, and on SIGINT/SIGTERM. */
const cleanups: Array<() => unknown> = [];
async function cleanUp() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()!();
    } catch (error) {
      process.stderr.write(`cleanup: ${(error as Error)?.message ?? error}\n`);
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

interface Started {
  url: string;
  proc: Bun.Subprocess;
}

/** A server pinned to core 1 (processes.ts), stopped at the end of the bench (on failure too). */
async function startPinned(command: string[], env: Record<string, string>, pattern: RegExp): Promise<Started> {
  const started = await startServer(command, env, pattern, ROOT);
  const { proc } = started;
  cleanups.push(async () => {
    proc.kill("SIGTERM");
    if ((await Promise.race([proc.exited, Bun.sleep(10_000).then(() => "late")])) === "late") proc.kill("SIGKILL");
  });
  return started;
}

async function api(base: string, path: string, body: unknown) {
  const r = await fetch(base + path, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

interface Case {
  name: string;
  /** The case its ratio is taken against, in the same round (default: the bare 1 KB baseline). */
  baseline?: string;
  target?(): Promise<{ url: string; body: string; headers: Record<string, string> }>;
  /** Instead of one wrk on `target`: load measured otherwise (several instances at once). */
  measure?(seconds: number): Promise<LoadResult>;
  /** The server whose CPU time per answered request is reported (user + system, all its threads). */
  pid?: number;
  /** Called after each load of the case (warm-up included), outside the measured time. */
  after?(result: LoadResult): Promise<void>;
}

/**
 * After a 64 KB case (hundreds of MB written): the kernel's write-back of it, done now and not
 * measured, so that it does not take CPU and disk from the cases after it (the bare baseline and
 * PostgreSQL among them).
 */
async function settleDisk(): Promise<void> {
  await Bun.spawn(["sync"]).exited;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  ensureWrk();
  const body1k = sampleBody(1024);
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-bench-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const bare = await startPinned([process.execPath, "run", "test/bench/bare_server.ts"], {}, /bare listening on (http:\/\/\S+)/);
  // BENCH_CPU_PROF=<dir>: the main inlet server writes a markdown CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const inlet = await startPinned(
    [process.execPath, ...profile, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", dataDir, "--log-requests", "false"],
    { INLET_ADMIN_TOKEN: ADMIN },
    /inlet listening on (http:\/\/\S+)/,
  );
  // The same server committing each request in its own transaction (one fsync each).
  const soloDir = mkdtempSync(join(tmpdir(), "inlet-bench-solo-"));
  cleanups.push(() => rmSync(soloDir, { recursive: true, force: true }));
  const solo = await startPinned(
    [process.execPath, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", soloDir, "--log-requests", "false"],
    { INLET_ADMIN_TOKEN: ADMIN, INLET_GROUP_COMMIT: "0" },
    /inlet listening on (http:\/\/\S+)/,
  );
  const floorDir = mkdtempSync(join(tmpdir(), "inlet-bench-floor-"));
  cleanups.push(() => rmSync(floorDir, { recursive: true, force: true }));
  const floor = await startPinned([process.execPath, "run", "test/bench/store_floor_server.ts"], { DATA_DIR: floorDir }, /floor listening on (http:\/\/\S+)/);
  const logFloor = await startPinned(
    [process.execPath, "run", "test/bench/log_floor_server.ts"],
    { DATA_DIR: floorDir },
    /log floor listening on (http:\/\/\S+)/,
  );
  const ceilingDir = mkdtempSync(join(tmpdir(), "inlet-bench-ceiling-"));
  cleanups.push(() => rmSync(ceilingDir, { recursive: true, force: true }));
  const ceiling = await startPinned(
    [
      process.execPath,
      "run",
      "--preload",
      "./test/bench/no_store_preload.ts",
      "src/main.ts",
      "serve",
      "--port",
      "0",
      "--data-dir",
      ceilingDir,
      "--log-requests",
      "false",
    ],
    { INLET_ADMIN_TOKEN: ADMIN },
    /inlet listening on (http:\/\/\S+)/,
  );
  const json = { "Content-Type": "application/json" };
  const none = await api(inlet.url, "/api/triggers", { name: "bench-none" });
  const noneSolo = await api(solo.url, "/api/triggers", { name: "bench-none-solo" });
  const hmac = await api(inlet.url, "/api/triggers", { name: "bench-hmac", auth: { type: "hmac-sha256" } });
  const hmacSecret = (await (await fetch(`${inlet.url}/api/triggers/${hmac.id}/secret`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()).secret;
  const signature = `sha256=${createHmac("sha256", hmacSecret).update(body1k).digest("hex")}`;

  // Pre-execution settings (issue 3): filter + 10 redaction patterns + payload-hash dedup, against
  // the same trigger without them; every body is new (a counter) so dedup never short-circuits.
  const preExec = {
    dedup: { strategy: "payload-hash" },
    filter: SAMPLE_FILTER,
    redaction: { enabled: true, patterns: REDACTION_PATTERNS },
  };
  const unique = (body: string) => body.replace('"evt_', `"evt_${UNIQUE_MARKER}_`);
  const body64k = sampleBody(64 * 1024);
  const plain = await api(inlet.url, "/api/triggers", { name: "bench-plain" });
  const checked = await api(inlet.url, "/api/triggers", { name: "bench-pre-exec", ...preExec });
  // Ordering per key (issue 15) and JSON Schema (issue 14): an http workflow with and without an
  // ordering key (every body's id differs, so every run has its own key), and a schema whose
  // patterns run in the sandbox, each beside its plain counterpart in the same round.
  const runTarget = await startPinned([process.execPath, "run", "test/bench/target_server.ts"], {}, /target listening on (http:\/\/\S+)/);
  const httpWorkflow = { kind: "http", url: `${runTarget.url}/hook` };
  // The runs a case queued are delivered after its load ends: wait until the target has seen the
  // last of them, so that the backlog does not share core 1 with the next case (nor the next round).
  const drainRuns = async () => {
    const delivered = async () => ((await (await fetch(`${runTarget.url}/count`)).json()) as { deliveries: number }).deliveries;
    const started = Date.now();
    for (let last = -1, now = await delivered(); now !== last && Date.now() - started < 180_000; ) {
      await Bun.sleep(500);
      [last, now] = [now, await delivered()];
    }
  };
  const unordered = await api(inlet.url, "/api/triggers", { name: "bench-http", workflow: httpWorkflow });
  const ordered = await api(inlet.url, "/api/triggers", { name: "bench-http-ordered", workflow: { ...httpWorkflow, orderingKey: "$.id" } });
  const schemaDocument = {
    type: "object",
    required: ["id", "type", "data"],
    properties: { id: { type: "string", pattern: "^evt_[A-Za-z0-9_]+$" }, type: { type: "string", pattern: "^[a-z]+\\.[a-z_.]+$" }, data: { type: "object" } },
  };
  const schemaChecked = await api(inlet.url, "/api/triggers", { name: "bench-schema", schema: { enabled: true, document: schemaDocument } });
  /** A trigger with the full configuration on the server at `base`, and the signed headers of a request to it. */
  const fullTrigger = async (base: string, name: string) => {
    const trigger = await api(base, "/api/triggers", { name, ...FULL_CONFIGURATION });
    const secret = (await (await fetch(`${base}/api/triggers/${trigger.id}/secret`, { headers: { Authorization: `Bearer ${ADMIN}` } })).json()).secret;
    const headers = (body: string) => ({
      ...json,
      "X-Signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
      "X-Delivery-Id": `dlv_${UNIQUE_MARKER}`,
    });
    return { trigger, headers };
  };
  const { trigger: full, headers: fullHeaders } = await fullTrigger(inlet.url, "bench-full");
  const { trigger: ceilingFull, headers: ceilingHeaders } = await fullTrigger(ceiling.url, "bench-ceiling");
  const pg = pgWanted ? await postgresCases(body1k) : null;
  // A command per request beside adnanh/webhook (issue 13): naming one of its cases brings all three.
  const commands = commandCasesWanted(only)
    ? await commandCases({
        inletUrl: inlet.url,
        inletPid: inlet.proc.pid,
        adminToken: ADMIN,
        body: body1k,
        startPinned,
        onCleanup: (undo) => cleanups.push(undo),
      })
    : null;

  let cases: Case[] = [
    { name: BARE, pid: bare.proc.pid, target: async () => ({ url: `${bare.url}/`, body: body1k, headers: json }) },
    { name: BARE_64K, baseline: BARE_64K, pid: bare.proc.pid, target: async () => ({ url: `${bare.url}/`, body: body64k, headers: json }) },
    { name: FULL_1K, pid: inlet.proc.pid, target: async () => ({ url: full.url, body: body1k, headers: fullHeaders(body1k) }) },
    { name: STORE_FLOOR, pid: floor.proc.pid, target: async () => ({ url: `${floor.url}/`, body: body1k, headers: fullHeaders(body1k) }) },
    { name: PATH_CEILING, pid: ceiling.proc.pid, target: async () => ({ url: ceilingFull.url, body: body1k, headers: ceilingHeaders(body1k) }) },
    { name: LOG_FLOOR, pid: logFloor.proc.pid, target: async () => ({ url: `${logFloor.url}/`, body: body1k, headers: json }) },
    {
      name: FULL_64K,
      baseline: BARE_64K,
      pid: inlet.proc.pid,
      target: async () => ({ url: full.url, body: body64k, headers: fullHeaders(body64k) }),
      after: settleDisk,
    },
    { name: "inlet, auth none", pid: inlet.proc.pid, target: async () => ({ url: none.url, body: body1k, headers: json }) },
    { name: "inlet, auth none, one commit per request", pid: solo.proc.pid, target: async () => ({ url: noneSolo.url, body: body1k, headers: json }) },
    { name: "inlet, hmac-sha256", pid: inlet.proc.pid, target: async () => ({ url: hmac.url, body: body1k, headers: { ...json, "X-Signature": signature } }) },
    { name: "inlet 1 KB, no pre-execution settings", pid: inlet.proc.pid, target: async () => ({ url: plain.url, body: unique(body1k), headers: json }) },
    {
      name: "inlet 1 KB, filter + 10 patterns + payload hash",
      pid: inlet.proc.pid,
      target: async () => ({ url: checked.url, body: unique(body1k), headers: json }),
    },
    {
      name: "inlet 64 KB, no pre-execution settings",
      pid: inlet.proc.pid,
      target: async () => ({ url: plain.url, body: unique(body64k), headers: json }),
      after: settleDisk,
    },
    {
      name: "inlet 64 KB, filter + 10 patterns + payload hash",
      pid: inlet.proc.pid,
      target: async () => ({ url: checked.url, body: unique(body64k), headers: json }),
      after: settleDisk,
    },
    {
      name: "inlet 1 KB, JSON Schema (2 patterns)",
      pid: inlet.proc.pid,
      target: async () => ({ url: schemaChecked.url, body: unique(body1k), headers: json }),
    },
    {
      name: "inlet 1 KB, http workflow",
      pid: inlet.proc.pid,
      target: async () => ({ url: unordered.url, body: unique(body1k), headers: json }),
      after: drainRuns,
    },
    {
      name: "inlet 1 KB, http workflow, ordering key",
      pid: inlet.proc.pid,
      target: async () => ({ url: ordered.url, body: unique(body1k), headers: json }),
      after: drainRuns,
    },
    ...(pg?.cases ?? []),
    ...(commands?.cases ?? []),
  ];
  // A named case brings its baseline along; the command cases come as a set (see commands.ts).
  const wanted = new Set(only ?? cases.map((c) => c.name));
  for (const c of cases) if (wanted.has(c.name)) wanted.add(c.baseline ?? BARE);
  if (pgWanted) wanted.add(SQLITE_CASE);
  for (const c of commands?.cases ?? []) wanted.add(c.name);
  cases = cases.filter((c) => wanted.has(c.name));
  const measure = async (c: Case, s: number) => {
    let r: LoadResult;
    if (c.measure) r = await c.measure(s);
    else {
      const t = await c.target!();
      const before = c.pid ? cpuMs(c.pid).self : 0;
      r = await load(t.url, { seconds: s, connections, body: t.body, headers: t.headers });
      if (c.pid && r.requests > 0) r = { ...r, cpuUsPerRequest: ((cpuMs(c.pid).self - before) * 1000) / r.requests };
    }
    await c.after?.(r);
    return r;
  };

  // Steady state is what is compared: warm every case once (JIT, sandbox compile, name caches).
  for (const c of cases) await measure(c, Math.min(2, seconds));
  const results = new Map<string, LoadResult[]>();
  const ratios = new Map<string, number[]>();
  const sqliteRatios = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    const thisRound = new Map<string, number>();
    let sqlite = 0;
    for (const c of cases) {
      const r = await measure(c, seconds);
      if (r.non2xx > 0) throw new Error(`${c.name}: ${r.non2xx} non-2xx answers`);
      thisRound.set(c.name, r.rps);
      if (c.name === SQLITE_CASE) sqlite = r.rps;
      results.set(c.name, [...(results.get(c.name) ?? []), r]);
      ratios.set(c.name, [...(ratios.get(c.name) ?? []), r.rps / thisRound.get(c.baseline ?? BARE)!]);
      // The PostgreSQL cases come after "inlet, auth none": this is its figure of the same round.
      if (sqlite > 0) sqliteRatios.set(c.name, [...(sqliteRatios.get(c.name) ?? []), r.rps / sqlite]);
      process.stderr.write(
        `round ${round + 1}/${rounds} ${c.name}: ${Math.round(r.rps)} req/s, p99 ${r.p99ms} ms${r.cpuUsPerRequest ? `, ${Math.round(r.cpuUsPerRequest)} µs/req` : ""}\n`,
      );
    }
  }
  bare.proc.kill();
  floor.proc.kill();
  ceiling.proc.kill();
  logFloor.proc.kill();
  solo.proc.kill("SIGTERM");
  await solo.proc.exited;
  // Counted once the instances have stopped (each drains its pending commits first).
  const pgCheck = pg ? await pg.check() : null;
  inlet.proc.kill("SIGTERM");
  await inlet.proc.exited;
  // End to end on a server of its own: the rounds above leave a store of hundreds of thousands of
  // requests (64 KB ones among them) whose size and write-back would weigh on this one figure.
  let endToEnd = null;
  if (!only || only.includes("end to end")) {
    const e2eDir = mkdtempSync(join(tmpdir(), "inlet-bench-e2e-"));
    cleanups.push(() => rmSync(e2eDir, { recursive: true, force: true }));
    const fresh = await startPinned(
      [process.execPath, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", e2eDir, "--log-requests", "false"],
      { INLET_ADMIN_TOKEN: ADMIN },
      /inlet listening on (http:\/\/\S+)/,
    );
    endToEnd = await endToEndRuns(fresh.url, body1k);
    fresh.proc.kill("SIGTERM");
    await fresh.proc.exited;
  }

  // The burst: fresh triggers on a fresh server, 3 s each (what the issue measured), once.
  const burstOptions = { seconds: Math.min(3, seconds), connections };
  const burstRows = !only || only.includes("burst") ? await burstOnFreshServer(burstOptions) : null;
  // Destinations: fan-out and isolation on a fresh server, once.
  const destinationOptions = { seconds, connections };
  const destinations = !only || only.includes("destinations") ? await destinationsOnFreshServer(destinationOptions) : null;

  const rows = cases.map((c) => {
    const rs = results.get(c.name)!;
    return {
      case: c.name,
      rps: Math.round(median(rs.map((r) => r.rps))),
      p50ms: median(rs.map((r) => r.p50ms)),
      p99ms: median(rs.map((r) => r.p99ms)),
      ratio: Number(median(ratios.get(c.name)!).toFixed(2)),
      ...(rs.every((r) => r.cpuUsPerRequest !== undefined) ? { cpuUs: Math.round(median(rs.map((r) => r.cpuUsPerRequest!))) } : {}),
      ...(sqliteRatios.has(c.name) ? { toSqlite: Number(median(sqliteRatios.get(c.name)!).toFixed(2)) } : {}),
    };
  });
  const isPg = (name: string) => name === PG_ONE || name === PG_TWO;
  const baselineOf = (name: string) => cases.find((c) => c.name === name)?.baseline ?? BARE;
  const pgRows = rows.filter((r) => isPg(r.case));
  const pgTable =
    pg && pgRows.length > 0
      ? [
          "",
          `Shared store: inlet instances on one PostgreSQL ${pg.version} database (fsync on: each commit flushed before its answer, as on SQLite), same rounds as above. ` +
            `PostgreSQL and the instances share core 1, the core the SQLite server has to itself; wrk on core 0 (two instances: two wrk processes at once, ` +
            `${Math.ceil(connections / 2)} + ${Math.floor(connections / 2)} connections, req/s summed, p50/p99 the higher of the two). ` +
            "On 2 cores this measures the cost of the shared store, not scale-out: the two instances split one core.",
          "",
          "| case | req/s | p50 ms | p99 ms | ratio to inlet on SQLite | ratio to bare |",
          "|---|---|---|---|---|---|",
          ...[rows.find((r) => r.case === SQLITE_CASE)!, ...pgRows].map(
            (r) =>
              `| ${r.case === SQLITE_CASE ? "inlet on SQLite, one instance (auth none, above)" : r.case} | ${r.rps} | ${r.p50ms} | ${r.p99ms} | ${(r.toSqlite ?? 1).toFixed(2)} | ${r.ratio.toFixed(2)} |`,
          ),
          "",
          ...(pgCheck?.lines ?? []),
        ]
      : [];
  const rpsOf = (name: string) => rows.find((r) => r.case === name)?.rps;
  const preExecTable = ["1 KB", "64 KB"].flatMap((size) => {
    const without = rpsOf(`inlet ${size}, no pre-execution settings`);
    const withChecks = rpsOf(`inlet ${size}, filter + 10 patterns + payload hash`);
    return without && withChecks ? [`| ${size} | ${without} | ${withChecks} | ${(withChecks / without).toFixed(2)} |`] : [];
  });
  const preTable = preExecTable.length
    ? [
        "",
        "Pre-execution settings (field names recurring, warm caches): req/s of the same trigger with and without them, same run:",
        "",
        "| body | without | with filter + 10 patterns + payload hash | ratio |",
        "|---|---|---|---|",
        ...preExecTable,
      ]
    : [];
  const e2eTable = endToEnd
    ? [
        "",
        `End to end, http workflow to a local target (target on core 0 with wrk), run concurrency 8, wrk -c${connections} -d${seconds}s, once:`,
        "",
        "| case | acks/s | runs/s | p50 ms | p99 ms |",
        "|---|---|---|---|---|",
        `| workflow response mode (each request waits for its run) | ${Math.round(endToEnd.workflow.rps)} | ${Math.round(endToEnd.workflow.rps)} | ${endToEnd.workflow.p50ms} | ${endToEnd.workflow.p99ms} |`,
        `| immediate ack, runs under load | ${Math.round(endToEnd.immediate.rps)} | ${Math.round(endToEnd.runsUnderLoad)} | ${endToEnd.immediate.p50ms} | ${endToEnd.immediate.p99ms} |`,
        `| immediate ack, backlog draining (no load) | – | ${Math.round(endToEnd.runsDraining)} | – | – |`,
      ]
    : [];
  const table = [
    `1 KB JSON body (64 KB where the case says so), wrk -t1 -c${connections} -d${seconds}s, median of ${rounds} rounds; server on core 1, wrk on core 0; ratio = req/s ÷ bare Bun.serve on the same body in the same round; ` +
      "CPU = the server's CPU time (every thread, from /proc) per answered request during the load, and its ratio = the baseline's ÷ the case's (what a noisy machine moves least)",
    "",
    "| case | req/s | p50 ms | p99 ms | ratio to bare | server CPU µs/req | CPU ratio |",
    "|---|---|---|---|---|---|---|",
    ...rows
      .filter((r) => !isPg(r.case) && !commands?.cases.some((c) => c.name === r.case))
      .map((r) => {
        const base = rows.find((b) => b.case === baselineOf(r.case));
        const cpuRatio = r.cpuUs && base?.cpuUs ? (base.cpuUs / r.cpuUs).toFixed(2) : "–";
        return `| ${r.case} | ${r.rps} | ${r.p50ms} | ${r.p99ms} | ${r.ratio.toFixed(2)}${baselineOf(r.case) === BARE ? "" : ` (of ${baselineOf(r.case)})`} | ${r.cpuUs ?? "–"} | ${cpuRatio} |`;
      }),
    ...pgTable,
    ...preTable,
    ...(commands?.table(results) ?? []),
    ...e2eTable,
    ...(burstRows ? burstTable(burstRows, burstOptions) : []),
    ...(destinations ? destinationsTable(destinations, destinationOptions) : []),
  ].join("\n");
  console.log(table);
  mkdirSync(join(ROOT, ".bench"), { recursive: true });
  writeFileSync(
    join(ROOT, ".bench", "latest.json"),
    JSON.stringify({ at: new Date().toISOString(), seconds, rounds, connections, rows, endToEnd, burst: burstRows, destinations, postgres: pgCheck }, null, 2),
  );
  writeFileSync(join(ROOT, ".bench", "latest.md"), table + "\n");
  const refusedInBurst = burstRows?.filter((r) => r.result.non2xx > 0) ?? [];
  if (refusedInBurst.length > 0)
    throw new Error(`burst on a fresh trigger: non-2xx answers (${refusedInBurst.map((r) => `${r.name}: ${r.result.non2xx}`).join("; ")})`);
  if (pgCheck && !pgCheck.ok) throw new Error(`PostgreSQL: acknowledged runs missing from the database:\n${pgCheck.lines.join("\n")}`);
}

/**
 * The PostgreSQL cases: a durable cluster, two instances; a trigger created through one and
 * loaded on both, another loaded on one instance only. Every 2xx wrk saw (warm-up and rounds)
 * is counted per trigger; `check()` stops the instances and compares with the runs in the database.
 */
async function postgresCases(body: string) {
  const log = (line: string) => process.stderr.write(line + "\n");
  const pg: PostgresBench = await startPostgresBench(startPinned, ADMIN, log);
  cleanups.push(() => pg.close());
  const json = { "Content-Type": "application/json" };
  const acknowledged = new Map<string, { name: string; n: number }>();
  const acknowledge = (id: string, name: string, n: number) => acknowledged.set(id, { name, n: (acknowledged.get(id)?.n ?? 0) + n });

  const two = await api(pg.a.url, "/api/triggers", { name: "bench-pg-two" });
  // Instance b learns of the trigger by NOTIFY (or its one-second revision poll); its webhook URL answers 404 until then.
  const known = await waitUntilKnown(pg.b, two.token, body);
  acknowledge(two.id, PG_TWO, known.acknowledged);
  log(`instance b routes the trigger created through instance a after ${known.ms} ms`);
  const one = await api(pg.a.url, "/api/triggers", { name: "bench-pg-one" });

  const settleMs: number[] = [];
  const after = (id: string, name: string) => async (r: LoadResult) => {
    acknowledge(id, name, r.requests - r.non2xx);
    const started = performance.now();
    await pg.settle();
    settleMs.push(performance.now() - started);
  };
  const cases: Case[] = [
    { name: PG_ONE, target: async () => ({ url: `${pg.a.url}/webhooks/${one.token}`, body, headers: json }), after: after(one.id, PG_ONE) },
    {
      name: PG_TWO,
      measure: async (s) => {
        const r = await loadSplit([`${pg.a.url}/webhooks/${two.token}`, `${pg.b.url}/webhooks/${two.token}`], { seconds: s, connections, body, headers: json });
        log(`  ${PG_TWO}: instance a ${Math.round(r.parts[0].rps)} req/s, instance b ${Math.round(r.parts[1].rps)} req/s`);
        return r;
      },
      after: after(two.id, PG_TWO),
    },
  ];

  const check = async () => {
    await pg.stopInstances();
    const lines: string[] = [];
    let ok = true;
    for (const [id, { name, n }] of acknowledged) {
      const runs = await pg.runCount(id);
      ok &&= runs >= n;
      lines.push(
        `${runs >= n ? "Nothing acknowledged was lost" : "LOST ACKNOWLEDGED RUNS"} (${name}): ${n} 2xx answers counted by wrk (warm-up and rounds${name === PG_TWO ? ", and the probe of instance b" : ""}), ` +
          `${runs} runs in the database${runs > n ? ` (${runs - n} more: requests in flight when wrk stopped, committed but never counted)` : ""}.`,
      );
    }
    const settle = settleMs.length
      ? ` VACUUM + CHECKPOINT after each PostgreSQL load (not measured, so that autovacuum and the checkpointer stay out of the next case): median ${Math.round(median(settleMs))} ms.`
      : "";
    lines.push(
      `Instance b routed the trigger created through instance a after ${known.ms} ms (announced by NOTIFY; the fallback revision poll runs every second).${settle}`,
    );
    for (const line of lines) log(line);
    await pg.close();
    return { ok, lines, notifyMs: known.ms, settleMs };
  };
  return { cases, check, version: pg.version };
}

/**
 * Runs executed end to end, to a local http target: a closed loop in workflow response mode,
 * then immediate acks with runs counted at the target over fixed windows.
 */
async function endToEndRuns(inletUrl: string, body: string) {
  const json = { "Content-Type": "application/json" };
  const target = await startPinned([process.execPath, "run", "test/bench/target_server.ts"], {}, /target listening on (http:\/\/\S+)/);
  const deliveries = async () => ((await (await fetch(`${target.url}/count`)).json()) as { deliveries: number }).deliveries;
  const workflow = { kind: "http", url: `${target.url}/hook` };
  // One destination allowed as many runs at once as the server's run slots (8), not the default 2.
  const destinations = [{ name: "default", workflow, concurrency: 8 }];
  const waiting = await api(inletUrl, "/api/triggers", { name: "bench-e2e-workflow", response: { mode: "workflow", timeoutMs: 30_000 }, destinations });
  const immediate = await api(inletUrl, "/api/triggers", { name: "bench-e2e-immediate", destinations });

  const closedLoop = await load(waiting.url, { seconds, connections, body, headers: json });
  if (closedLoop.non2xx > 0) throw new Error(`end to end (workflow response mode): ${closedLoop.non2xx} non-2xx answers`);
  process.stderr.write(`end to end, workflow response mode: ${Math.round(closedLoop.rps)} runs/s\n`);

  // Counted between 1 s after the start and 1 s before the end: the steady part of the load.
  const window = Math.max(1, seconds - 2);
  const acks = load(immediate.url, { seconds, connections, body, headers: json });
  await Bun.sleep(1000);
  const c1 = await deliveries();
  await Bun.sleep(window * 1000);
  const c2 = await deliveries();
  const ackResult = await acks;
  if (ackResult.non2xx > 0) throw new Error(`end to end (immediate): ${ackResult.non2xx} non-2xx answers`);
  const drainWindow = Math.min(seconds, 5);
  const c3 = await deliveries();
  await Bun.sleep(drainWindow * 1000);
  const c4 = await deliveries();
  target.proc.kill();
  const result = { workflow: closedLoop, immediate: ackResult, runsUnderLoad: (c2 - c1) / window, runsDraining: (c4 - c3) / drainWindow };
  process.stderr.write(
    `end to end, immediate: ${Math.round(ackResult.rps)} acks/s, ${Math.round(result.runsUnderLoad)} runs/s under load, ${Math.round(result.runsDraining)} runs/s draining\n`,
  );
  return result;
}

try {
  await main();
} finally {
  await cleanUp();
}
