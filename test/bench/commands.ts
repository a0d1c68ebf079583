/**
 * The command-workflow case of `npm run bench` (issue 13): an hmac-sha256 trigger whose workflow
 * runs `/bin/true` per request in workflow response mode (each caller waits for its command), side
 * by side with adnanh/webhook (Debian's `webhook`) doing the same: a payload-hmac-sha256 rule on a
 * header, `execute-command: /bin/true`, `include-command-output-in-response: true`. A third
 * server shows what that costs in Bun with nothing else (test/bench/spawn_server.ts: the HMAC
 * check, Bun.spawn, the answer): the ceiling any Bun implementation can reach. All are pinned to
 * core 1 (the commands they start inherit it), all get the same signed body and wrk settings; the
 * ratios to webhook are taken within each round.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDebianCommand, type LoadResult } from "./wrk.ts";
import { cpuMs } from "./processes.ts";

export const COMMAND_CASE = "command /bin/true, workflow response (hmac)";
export const WEBHOOK_CASE = "adnanh/webhook /bin/true (hmac)";
export const CEILING_CASE = "bare Bun.serve + Bun.spawn /bin/true (hmac)";
export const COMMAND_CASES = [COMMAND_CASE, WEBHOOK_CASE, CEILING_CASE];

/** The shape of run.ts's cases (wrk on `target`, then `after`). */
export interface CommandCase {
  name: string;
  target(): Promise<{ url: string; body: string; headers: Record<string, string> }>;
  after(result: LoadResult): Promise<void>;
}

type StartPinned = (command: string[], env: Record<string, string>, pattern: RegExp) => Promise<{ url: string; proc: { pid: number } }>;

/** Per measured load: the server's CPU per answered request, its own and its commands'. */
interface CpuPerRequest {
  server: number;
  commands: number;
}

export interface CommandBenchDeps {
  /** The inlet server under test (its pid: taskset execs it), and its admin token. */
  inletUrl: string;
  inletPid: number;
  adminToken: string;
  /** The request body both servers get (signed with the same secret). */
  body: string;
  /** Starts a server pinned to core 1 and reads its URL from its output (run.ts's). */
  startPinned: StartPinned;
  /** Undone at the end of the bench (on failure too). */
  onCleanup(undo: () => unknown): void;
}

/** Makes sure adnanh/webhook is there (Debian's package), like wrk. */
export const ensureWebhook = () => ensureDebianCommand("webhook", "webhook", "the command case (adnanh/webhook)");

/**
 * Whether this bench run has the command cases: always when BENCH_ONLY names one of them (then a
 * missing `webhook` is an error); in a full run, only where `webhook` is or can be installed,
 * with a note otherwise (like the PostgreSQL cases).
 */
export function commandCasesWanted(only: string[] | undefined): boolean {
  if (only !== undefined) return COMMAND_CASES.some((name) => only.includes(name));
  try {
    ensureWebhook();
    return true;
  } catch {
    process.stderr.write("adnanh/webhook not installed (apt-get install webhook): the command cases are left out\n");
    return false;
  }
}

/** adnanh/webhook's hooks.json for the case: the HMAC of the raw body in `X-Signature`, then /bin/true. */
export function webhookHooks(secret: string): unknown[] {
  return [
    {
      id: "bench",
      "execute-command": "/bin/true",
      "include-command-output-in-response": true,
      "trigger-rule": { match: { type: "payload-hmac-sha256", secret, parameter: { source: "header", name: "X-Signature" } } },
    },
  ];
}

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Starts `webhook` pinned to core 1 like inlet; it prints nothing unless verbose, so its port is polled. */
async function startWebhook(secret: string, onCleanup: CommandBenchDeps["onCleanup"]): Promise<{ url: string; pid: number }> {
  const binary = ensureWebhook();
  const dir = mkdtempSync(join(tmpdir(), "inlet-bench-webhook-"));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const hooks = join(dir, "hooks.json");
  writeFileSync(hooks, JSON.stringify(webhookHooks(secret)));
  const port = await freePort();
  const command = [binary, "-hooks", hooks, "-ip", "127.0.0.1", "-port", String(port)];
  const proc = Bun.spawn(Bun.which("taskset") ? ["taskset", "-c", "1", ...command] : command, { stdout: "ignore", stderr: "inherit" });
  onCleanup(async () => {
    proc.kill("SIGTERM");
    if ((await Promise.race([proc.exited, Bun.sleep(10_000).then(() => "late")])) === "late") proc.kill("SIGKILL");
  });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (proc.exitCode !== null) throw new Error(`webhook exited with code ${proc.exitCode} before listening on ${base}`);
    try {
      await fetch(`${base}/`);
      return { url: `${base}/hooks/bench`, pid: proc.pid };
    } catch {
      if (tries > 100) throw new Error(`webhook did not listen on ${base} within 10 s`);
      await Bun.sleep(100);
    }
  }
}

/** The three cases, and the lines of the bench's table that compare them round by round. */
export async function commandCases(deps: CommandBenchDeps) {
  const auth = { Authorization: `Bearer ${deps.adminToken}` };
  const created = await fetch(`${deps.inletUrl}/api/triggers`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "bench-command",
      auth: { type: "hmac-sha256" },
      response: { mode: "workflow", timeoutMs: 30_000 },
      // As many commands at once as callers wait (up to the most a destination allows, 64), as
      // webhook runs them: the shorthand's default of 2, or 8, would measure the destination's
      // limit, not the server (README "A command per request, beside adnanh/webhook").
      destinations: [{ name: "default", workflow: { kind: "command", argv: ["/bin/true"], timeoutMs: 30_000 }, concurrency: 64 }],
    }),
  });
  if (created.status !== 201) throw new Error(`creating the command trigger: ${created.status} ${await created.text()}`);
  const trigger = (await created.json()) as { id: string; url: string };
  const { secret } = (await (await fetch(`${deps.inletUrl}/api/triggers/${trigger.id}/secret`, { headers: auth })).json()) as { secret: string };
  const webhook = await startWebhook(secret, deps.onCleanup);
  const ceiling = await deps.startPinned([process.execPath, "run", "test/bench/spawn_server.ts"], { SECRET: secret }, /spawn listening on (http:\/\/\S+)/);
  const headers = { "Content-Type": "application/json", "X-Signature": `sha256=${createHmac("sha256", secret).update(deps.body).digest("hex")}` };

  // CPU per request is read from /proc around each load: unlike req/s, other work on the shared
  // machine barely moves it, so it says where each server's time goes.
  const cpu = new Map<string, CpuPerRequest[]>();
  const measured = (name: string, url: string, pid: number): CommandCase => {
    let before = cpuMs(pid);
    return {
      name,
      target: async () => {
        before = cpuMs(pid);
        return { url, body: deps.body, headers };
      },
      after: async (result) => {
        const now = cpuMs(pid);
        const answered = Math.max(1, result.requests);
        const perRequest = { server: ((now.self - before.self) * 1000) / answered, commands: ((now.children - before.children) * 1000) / answered };
        cpu.set(name, [...(cpu.get(name) ?? []), perRequest]);
      },
    };
  };
  const cases: CommandCase[] = [
    measured(COMMAND_CASE, trigger.url, deps.inletPid),
    measured(WEBHOOK_CASE, webhook.url, webhook.pid),
    measured(CEILING_CASE, `${ceiling.url}/`, ceiling.proc.pid),
  ];

  /** The comparison, from the measured rounds (each case runs once per round, in that order). */
  const table = (results: Map<string, LoadResult[]>): string[] => {
    const webhook = results.get(WEBHOOK_CASE) ?? [];
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratiosOf = (name: string) => (results.get(name) ?? []).map((r, i) => r.rps / webhook[i].rps);
    const row = (name: string) => {
      const rs = results.get(name)!;
      // The warm-up's figures come first: the rounds' are the last ones.
      const cs = (cpu.get(name) ?? []).slice(-rs.length);
      const us = (pick: (c: CpuPerRequest) => number) => Math.round(median(cs.map(pick)));
      return `| ${name} | ${Math.round(median(rs.map((r) => r.rps)))} | ${median(rs.map((r) => r.p50ms))} | ${median(rs.map((r) => r.p99ms))} | ${us((c) => c.server)} | ${us((c) => c.commands)} | ${median(ratiosOf(name)).toFixed(2)} |`;
    };
    if (!COMMAND_CASES.every((name) => results.get(name)?.length === webhook.length && webhook.length > 0)) return [];
    return [
      "",
      "A command per request, each caller waiting for it (inlet: hmac-sha256 trigger, workflow response mode, `/bin/true` with `$trigger` on stdin, run and " +
        "outcome durably recorded; adnanh/webhook: payload-hmac-sha256 rule, `/bin/true`, include-command-output-in-response; the Bun ceiling: the HMAC " +
        "check and Bun.spawn, nothing stored), each on core 1 with the commands it starts; CPU µs per answered request from /proc (the server's own, " +
        "and its commands' from exec to exit); ratio = req/s ÷ webhook's in the same round, median:",
      "",
      "| case | req/s | p50 ms | p99 ms | server CPU µs/req | commands CPU µs/req | ratio to webhook |",
      "|---|---|---|---|---|---|---|",
      ...COMMAND_CASES.map(row),
      `Per round, inlet ÷ webhook: ${ratiosOf(COMMAND_CASE)
        .map((r) => r.toFixed(2))
        .join(", ")}; ceiling ÷ webhook: ${ratiosOf(CEILING_CASE)
        .map((r) => r.toFixed(2))
        .join(", ")}.`,
    ];
  };
  return { cases, table };
}
