import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClaimedRun } from "../records/run.ts";
import { commandRunner } from "./command_runner.ts";
import { RunAborted, type RunContext } from "./types.ts";

const dir = mkdtempSync(join(tmpdir(), "inlet-cmd-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run: ClaimedRun = {
  id: "0190-cmd-run",
  triggerId: "t1",
  requestId: "req-1",
  status: "running",
  trigger: { body: { deploy: "main" } },
  result: null,
  attempts: 0,
  error: null,
  createdAt: new Date().toISOString(),
  finishedAt: null,
};
const runner = commandRunner();
const ctx = (signal = new AbortController().signal): RunContext => ({ signal, recordAttempt: async () => true });
const decode = (body: unknown) => (typeof body === "string" ? body : new TextDecoder().decode(body as Uint8Array));

/** Gone, or a zombie waiting for a reaper (it no longer runs). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? false;
  } catch {
    return true;
  }
}

test("argv without a shell, $trigger as JSON on stdin, the run id in INLET_RUN_ID; JSON stdout is the answer", async () => {
  const outcome = await runner({ kind: "command", argv: ["sh", "-c", 'read -r input; printf \'{"got":%s,"run":"%s"}\' "$input" "$INLET_RUN_ID"'] }, run, ctx());
  expect(outcome.status).toBe("succeeded");
  expect(JSON.parse(decode(outcome.answer?.body))).toEqual({ got: run.trigger, run: run.id });
  expect(outcome.answer?.status).toBe(200);
  expect(outcome.answer?.headers["Content-Type"]).toBe("application/json");
  expect(outcome.result).toMatchObject({ exitCode: 0, signal: null, timedOut: false, stdoutTruncated: false });
});

test("a large $trigger reaches stdin whole; a command that never reads it still succeeds", async () => {
  const big: ClaimedRun = { ...run, trigger: { body: { blob: "x".repeat(2 * 1024 * 1024) } } };
  const expected = Buffer.byteLength(JSON.stringify(big.trigger));
  const counted = await runner({ kind: "command", argv: ["wc", "-c"] }, big, ctx());
  expect(decode(counted.answer?.body).trim()).toBe(String(expected));
  const ignoring = await runner({ kind: "command", argv: ["true"] }, big, ctx());
  expect(ignoring).toMatchObject({ status: "succeeded", result: { exitCode: 0 } });
  const leavingEarly = await runner({ kind: "command", argv: ["sh", "-c", "head -c 5 >/dev/null; echo read-5"] }, big, ctx());
  expect(decode(leavingEarly.answer?.body)).toBe("read-5\n");
});

test("commands leave no descriptor open in the server once they are done", async () => {
  const { readdirSync } = await import("node:fs");
  const open = () => readdirSync("/proc/self/fd").length;
  await runner({ kind: "command", argv: ["true"] }, run, ctx());
  const before = open();
  for (let i = 0; i < 40; i++) await runner({ kind: "command", argv: ["cat"] }, run, ctx());
  expect(open()).toBeLessThanOrEqual(before + 2);
});

test("arguments reach the program verbatim: no shell expansion", async () => {
  const outcome = await runner({ kind: "command", argv: ["printf", "%s|", "$HOME", "*", "a b;c"] }, run, ctx());
  expect(decode(outcome.answer?.body)).toBe("$HOME|*|a b;c|");
  expect(outcome.answer?.headers["Content-Type"]).toBe("text/plain; charset=utf-8");
});

test("inlet's own settings (admin token, secret key, database URL) are not in the command's environment", async () => {
  process.env.INLET_ADMIN_TOKEN = "do-not-leak-0123456789";
  process.env.INLET_SECRET_KEY = "do-not-leak-key";
  process.env.INLET_DATABASE_URL = "postgres://u:do-not-leak-password@db/x";
  try {
    const outcome = await runner({ kind: "command", argv: ["sh", "-c", "env"] }, run, ctx());
    const env = decode(outcome.answer?.body);
    expect(env).not.toContain("do-not-leak");
    expect(env).toContain(`INLET_RUN_ID=${run.id}`);
    expect(env).toContain("INLET_REQUEST_ID=req-1");
    expect(env).toContain("INLET_TRIGGER_ID=t1");
  } finally {
    delete process.env.INLET_ADMIN_TOKEN;
    delete process.env.INLET_SECRET_KEY;
    delete process.env.INLET_DATABASE_URL;
  }
});

test("a non-zero exit fails the run, with exit code and stderr recorded", async () => {
  const outcome = await runner({ kind: "command", argv: ["sh", "-c", "echo partial; echo 'no such branch' >&2; exit 3"] }, run, ctx());
  expect(outcome).toMatchObject({ status: "failed", error: "exited with code 3", answer: null, failureStatus: 500 });
  expect(outcome.result).toMatchObject({ exitCode: 3, stdout: "partial\n", stderr: "no such branch\n" });
});

test("a program that does not exist fails the run", async () => {
  const outcome = await runner({ kind: "command", argv: [join(dir, "missing-program")] }, run, ctx());
  expect(outcome).toMatchObject({ status: "failed", answer: null, failureStatus: 500 });
  expect(outcome.error).toContain("could not start");
});

test("timeoutMs kills the whole process group: a `sleep 100 & sleep 100` tree is fully gone", async () => {
  const pids = join(dir, "pids");
  const started = performance.now();
  const outcome = await runner(
    { kind: "command", argv: ["sh", "-c", `sleep 100 & echo $! > ${pids}; echo $$ >> ${pids}; sleep 100`], timeoutMs: 300 },
    run,
    ctx(),
  );
  const elapsed = performance.now() - started;
  expect(elapsed).toBeLessThan(2000);
  expect(outcome).toMatchObject({ status: "failed", error: "timed out after 300 ms; its process group was killed" });
  expect(outcome.result).toMatchObject({ timedOut: true, signal: "SIGKILL", exitCode: null });
  const tree = readFileSync(pids, "utf8").trim().split("\n").map(Number);
  expect(tree).toHaveLength(2);
  // The background sleep and the shell: both gone (give the kernel a moment to deliver).
  for (let i = 0; i < 20 && !tree.every(isGone); i++) await Bun.sleep(25);
  expect(tree.map(isGone)).toEqual([true, true]);
});

test("stdout and stderr are bounded (64 KiB each) with a truncation marker; the writer is never blocked", async () => {
  const outcome = await runner(
    { kind: "command", argv: ["sh", "-c", "head -c 300000 /dev/zero | tr '\\0' a; head -c 70000 /dev/zero | tr '\\0' b >&2"], timeoutMs: 10_000 },
    run,
    ctx(),
  );
  expect(outcome.status).toBe("succeeded");
  const result = outcome.result as any;
  expect(result.stdoutBytes).toBe(300000);
  expect(result.stdoutTruncated).toBe(true);
  expect(result.stdout.startsWith("a".repeat(65536) + "\n[truncated: 234464 more bytes]")).toBe(true);
  expect(result.stderrBytes).toBe(70000);
  expect(result.stderrTruncated).toBe(true);
  // A truncated stdout is text, never half a JSON document.
  expect(outcome.answer?.headers["Content-Type"]).toBe("text/plain; charset=utf-8");
});

test("a process left in the background does not hold the run open", async () => {
  const started = performance.now();
  const outcome = await runner({ kind: "command", argv: ["sh", "-c", "sleep 5 & echo done"] }, run, ctx());
  expect(performance.now() - started).toBeLessThan(2000);
  expect(outcome.status).toBe("succeeded");
  expect((outcome.result as any).stdout).toBe("done\n");
});

test("stopping the server kills the command and gives the run back", async () => {
  const controller = new AbortController();
  const running = runner({ kind: "command", argv: ["sleep", "30"] }, run, ctx(controller.signal));
  await Bun.sleep(100);
  controller.abort();
  await expect(running).rejects.toBeInstanceOf(RunAborted);
});

test("a command killed by a signal fails the run, naming the signal", async () => {
  const outcome = await runner({ kind: "command", argv: ["sh", "-c", "echo started; kill -9 $$"] }, run, ctx());
  expect(outcome).toMatchObject({ status: "failed", error: "killed by SIGKILL", answer: null, failureStatus: 500 });
  expect(outcome.result).toMatchObject({ exitCode: null, signal: "SIGKILL", timedOut: false, stdout: "started\n" });
});

test("the answer is the whole stdout (a JSON document over 64 KiB stays JSON); the run keeps 64 KiB of it", async () => {
  const outcome = await runner(
    { kind: "command", argv: ["sh", "-c", "printf '{\"data\":\"'; head -c 100000 /dev/zero | tr '\\0' a; printf '\"}'"] },
    run,
    ctx(),
  );
  expect(outcome.status).toBe("succeeded");
  expect(outcome.answer?.headers["Content-Type"]).toBe("application/json");
  expect(JSON.parse(decode(outcome.answer?.body)).data).toHaveLength(100_000);
  expect(outcome.result).toMatchObject({ stdoutBytes: 100_011, stdoutTruncated: true });
  expect((outcome.result as any).stdout).toEndWith("\n[truncated: 34475 more bytes]");
});
