/**
 * `npm run bench`: load benchmarks measured in one run against a bare Bun.serve baseline, so the
 * ratios hold on a noisy machine. Server pinned to core 1, wrk to core 0 (research/baseline.md).
 *
 * Cases: the bare baseline; inlet acknowledging durably with group commit and, in the same round,
 * with one transaction per request (a second server started with the benchmark knob
 * INLET_GROUP_COMMIT=0); HMAC auth; then, once, end to end: a workflow-response-mode trigger
 * (each request waits for its http run: req/s = runs/s), and immediate acks with an http
 * workflow, counting the runs the target receives over fixed windows (under load, then draining).
 *
 * Env: BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50), BENCH_ONLY (case names separated by ";"; "end to end" for those).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHmac } from "node:crypto";
import { sampleBody } from "./body.ts";
import { ensureWrk, load, UNIQUE_MARKER, type LoadResult } from "./wrk.ts";

const ROOT = join(import.meta.dir, "..", "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_ONLY?.split(";").map((s) => s.trim());
const ADMIN = "bench-admin-token-0123456789abcdef";

interface Started {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
}

async function startPinned(command: string[], env: Record<string, string>, pattern: RegExp): Promise<Started> {
  const pinned = Bun.which("taskset") ? ["taskset", "-c", "1", ...command] : command;
  const proc = Bun.spawn(pinned, { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!pattern.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${command.join(" ")} exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  (async () => {
    while (!(await reader.read()).done);
  })();
  return { url: text.match(pattern)![1], proc };
}

async function api(base: string, path: string, body: unknown) {
  const r = await fetch(base + path, { method: "POST", headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

interface Case {
  name: string;
  target(): Promise<{ url: string; body: string; headers: Record<string, string> }>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  ensureWrk();
  const body1k = sampleBody(1024);
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-bench-"));
  const bare = await startPinned([process.execPath, "run", "test/bench/bare_server.ts"], {}, /bare listening on (http:\/\/\S+)/);
  const inlet = await startPinned(
    [process.execPath, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", dataDir, "--log-requests", "false"],
    { INLET_ADMIN_TOKEN: ADMIN },
    /inlet listening on (http:\/\/\S+)/,
  );
  // The same server committing each request in its own transaction (one fsync each).
  const soloDir = mkdtempSync(join(tmpdir(), "inlet-bench-solo-"));
  const solo = await startPinned(
    [process.execPath, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", soloDir, "--log-requests", "false"],
    { INLET_ADMIN_TOKEN: ADMIN, INLET_GROUP_COMMIT: "0" },
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
  const patterns = ["pass(word)?", "^secret", "token$", "^api[_-]?key$", "ssn|social", "^(card|cc)[_-]?(num|number)?$", "cvv|cvc", "email", "phone", "^(dob|birth)"];
  const preExec = {
    dedup: { strategy: "payload-hash" },
    filter: { enabled: true, mode: "include", expression: '$.type == "invoice.paid" && $.data.object.amount > 100' },
    redaction: { enabled: true, patterns },
  };
  const unique = (body: string) => body.replace('"evt_', `"evt_${UNIQUE_MARKER}_`);
  const body64k = sampleBody(64 * 1024);
  const plain = await api(inlet.url, "/api/triggers", { name: "bench-plain" });
  const checked = await api(inlet.url, "/api/triggers", { name: "bench-pre-exec", ...preExec });

  const cases: Case[] = [
    { name: "bare Bun.serve (baseline)", target: async () => ({ url: `${bare.url}/`, body: body1k, headers: json }) },
    { name: "inlet, auth none", target: async () => ({ url: none.url, body: body1k, headers: json }) },
    { name: "inlet, auth none, one commit per request", target: async () => ({ url: noneSolo.url, body: body1k, headers: json }) },
    { name: "inlet, hmac-sha256", target: async () => ({ url: hmac.url, body: body1k, headers: { ...json, "X-Signature": signature } }) },
    { name: "inlet 1 KB, no pre-execution settings", target: async () => ({ url: plain.url, body: unique(body1k), headers: json }) },
    { name: "inlet 1 KB, filter + 10 patterns + payload hash", target: async () => ({ url: checked.url, body: unique(body1k), headers: json }) },
    { name: "inlet 64 KB, no pre-execution settings", target: async () => ({ url: plain.url, body: unique(body64k), headers: json }) },
    { name: "inlet 64 KB, filter + 10 patterns + payload hash", target: async () => ({ url: checked.url, body: unique(body64k), headers: json }) },
  ].filter((c, i) => i === 0 || !only || only.includes(c.name));

  // Steady state is what is compared: warm every case once (JIT, sandbox compile, name caches).
  for (const c of cases) {
    const t = await c.target();
    await load(t.url, { seconds: Math.min(2, seconds), connections, body: t.body, headers: t.headers });
  }
  const results = new Map<string, LoadResult[]>();
  const ratios = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    let baseline = 0;
    for (const c of cases) {
      const t = await c.target();
      const r = await load(t.url, { seconds, connections, body: t.body, headers: t.headers });
      if (r.non2xx > 0) throw new Error(`${c.name}: ${r.non2xx} non-2xx answers`);
      if (c === cases[0]) baseline = r.rps;
      results.set(c.name, [...(results.get(c.name) ?? []), r]);
      ratios.set(c.name, [...(ratios.get(c.name) ?? []), r.rps / baseline]);
      process.stderr.write(`round ${round + 1}/${rounds} ${c.name}: ${Math.round(r.rps)} req/s\n`);
    }
  }
  bare.proc.kill();
  solo.proc.kill("SIGTERM");
  await solo.proc.exited;
  rmSync(soloDir, { recursive: true, force: true });
  const endToEnd = !only || only.includes("end to end") ? await endToEndRuns(inlet.url, body1k) : null;
  inlet.proc.kill("SIGTERM");
  await inlet.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });

  const rows = cases.map((c) => {
    const rs = results.get(c.name)!;
    return {
      case: c.name,
      rps: Math.round(median(rs.map((r) => r.rps))),
      p50ms: median(rs.map((r) => r.p50ms)),
      p99ms: median(rs.map((r) => r.p99ms)),
      ratio: Number(median(ratios.get(c.name)!).toFixed(2)),
    };
  });
  const rpsOf = (name: string) => rows.find((r) => r.case === name)?.rps;
  const preExecTable = ["1 KB", "64 KB"].flatMap((size) => {
    const without = rpsOf(`inlet ${size}, no pre-execution settings`);
    const withChecks = rpsOf(`inlet ${size}, filter + 10 patterns + payload hash`);
    return without && withChecks ? [`| ${size} | ${without} | ${withChecks} | ${(withChecks / without).toFixed(2)} |`] : [];
  });
  const preTable = preExecTable.length
    ? ["", "Pre-execution settings (field names recurring, warm caches): req/s of the same trigger with and without them, same run:", "", "| body | without | with filter + 10 patterns + payload hash | ratio |", "|---|---|---|---|", ...preExecTable]
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
    `1 KB JSON body, wrk -t1 -c${connections} -d${seconds}s, median of ${rounds} rounds; server on core 1, wrk on core 0; ratio = req/s ÷ bare Bun.serve in the same round`,
    "",
    "| case | req/s | p50 ms | p99 ms | ratio to bare |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.case} | ${r.rps} | ${r.p50ms} | ${r.p99ms} | ${r.ratio.toFixed(2)} |`),
    ...preTable,
    ...e2eTable,
  ].join("\n");
  console.log(table);
  mkdirSync(join(ROOT, ".bench"), { recursive: true });
  writeFileSync(join(ROOT, ".bench", "latest.json"), JSON.stringify({ at: new Date().toISOString(), seconds, rounds, connections, rows, endToEnd }, null, 2));
  writeFileSync(join(ROOT, ".bench", "latest.md"), table + "\n");
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
  const waiting = await api(inletUrl, "/api/triggers", { name: "bench-e2e-workflow", response: { mode: "workflow", timeoutMs: 30_000 }, workflow });
  const immediate = await api(inletUrl, "/api/triggers", { name: "bench-e2e-immediate", workflow });

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
  process.stderr.write(`end to end, immediate: ${Math.round(ackResult.rps)} acks/s, ${Math.round(result.runsUnderLoad)} runs/s under load, ${Math.round(result.runsDraining)} runs/s draining\n`);
  return result;
}

await main();
