/**
 * The command-workflow case of `npm run bench` (issue 13): an hmac-sha256 trigger whose workflow
 * runs `/bin/true` per request in workflow response mode (each caller waits for its command), side
 * by side with adnanh/webhook (Debian's `webhook`) doing the same: a payload-hmac-sha256 rule on a
 * header, `execute-command: /bin/true`, `include-command-output-in-response: true`. Both servers
 * are pinned to core 1 (the commands they start inherit it), both get the same signed body and
 * wrk settings; the ratio inlet ÷ webhook is taken within each round.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadResult } from "./wrk.ts";

export const COMMAND_CASE = "command /bin/true, workflow response (hmac)";
export const WEBHOOK_CASE = "adnanh/webhook /bin/true (hmac)";
export const COMMAND_CASES = [COMMAND_CASE, WEBHOOK_CASE];

/** The shape of run.ts's cases (wrk on `target`). */
export interface CommandCase {
  name: string;
  target(): Promise<{ url: string; body: string; headers: Record<string, string> }>;
}

export interface CommandBenchDeps {
  /** The inlet server under test and its admin token. */
  inletUrl: string;
  adminToken: string;
  /** The request body both servers get (signed with the same secret). */
  body: string;
  /** Undone at the end of the bench (on failure too). */
  onCleanup(undo: () => unknown): void;
}

/** Makes sure adnanh/webhook is there (Debian's package), installing it when we are root, like wrk. */
export function ensureWebhook(): string {
  const found = Bun.which("webhook");
  if (found) return found;
  if (process.getuid?.() === 0) {
    Bun.spawnSync(["apt-get", "update", "-qq"], { stdout: "ignore", stderr: "inherit" });
    Bun.spawnSync(["apt-get", "install", "-y", "-qq", "webhook"], { stdout: "ignore", stderr: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
  const installed = Bun.which("webhook");
  if (!installed) throw new Error("adnanh/webhook is needed for the command case: apt-get install webhook");
  return installed;
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
async function startWebhook(secret: string, onCleanup: CommandBenchDeps["onCleanup"]): Promise<string> {
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
      return `${base}/hooks/bench`;
    } catch {
      if (tries > 100) throw new Error(`webhook did not listen on ${base} within 10 s`);
      await Bun.sleep(100);
    }
  }
}

/** The two cases, and the lines of the bench's table that compare them round by round. */
export async function commandCases(deps: CommandBenchDeps) {
  const auth = { Authorization: `Bearer ${deps.adminToken}` };
  const created = await fetch(`${deps.inletUrl}/api/triggers`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "bench-command",
      auth: { type: "hmac-sha256" },
      response: { mode: "workflow", timeoutMs: 30_000 },
      workflow: { kind: "command", argv: ["/bin/true"], timeoutMs: 30_000 },
    }),
  });
  if (created.status !== 201) throw new Error(`creating the command trigger: ${created.status} ${await created.text()}`);
  const trigger = (await created.json()) as { id: string; url: string };
  const { secret } = (await (await fetch(`${deps.inletUrl}/api/triggers/${trigger.id}/secret`, { headers: auth })).json()) as { secret: string };
  const webhookUrl = await startWebhook(secret, deps.onCleanup);
  const headers = { "Content-Type": "application/json", "X-Signature": `sha256=${createHmac("sha256", secret).update(deps.body).digest("hex")}` };

  const cases: CommandCase[] = [
    { name: COMMAND_CASE, target: async () => ({ url: trigger.url, body: deps.body, headers }) },
    { name: WEBHOOK_CASE, target: async () => ({ url: webhookUrl, body: deps.body, headers }) },
  ];

  /** The comparison, from the measured rounds (both cases run once per round, in that order). */
  const table = (results: Map<string, LoadResult[]>): string[] => {
    const inlet = results.get(COMMAND_CASE) ?? [];
    const webhook = results.get(WEBHOOK_CASE) ?? [];
    if (inlet.length === 0 || inlet.length !== webhook.length) return [];
    const ratios = inlet.map((r, i) => r.rps / webhook[i].rps);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const row = (name: string, rs: LoadResult[], ratio: string) =>
      `| ${name} | ${Math.round(median(rs.map((r) => r.rps)))} | ${median(rs.map((r) => r.p50ms))} | ${median(rs.map((r) => r.p99ms))} | ${ratio} |`;
    return [
      "",
      "A command per request, each caller waiting for it (inlet: hmac-sha256, workflow response mode, `/bin/true`; adnanh/webhook: payload-hmac-sha256 rule, " +
        "`/bin/true`, include-command-output-in-response), both on core 1 with the commands they start; ratio = inlet ÷ webhook in the same round, median:",
      "",
      "| case | req/s | p50 ms | p99 ms | ratio inlet ÷ webhook |",
      "|---|---|---|---|---|",
      row(COMMAND_CASE, inlet, median(ratios).toFixed(2)),
      row(WEBHOOK_CASE, webhook, "1.00"),
      `Per round: ${ratios.map((r) => r.toFixed(2)).join(", ")}.`,
    ];
  };
  return { cases, table };
}
