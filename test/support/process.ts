import { readdirSync, readlinkSync, realpathSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");
export const BUN = process.execPath;

/** Runs the CLI from source (asynchronously: a server under test may live in this process). */
export async function cli(args: string[], env: Record<string, string> = {}, stdin?: string) {
  const proc = Bun.spawn([BUN, "run", join(ROOT, "src/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

export interface ServerProcess {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  output: () => string;
  /** What it wrote to stderr so far (warnings, log events). */
  errors: () => string;
  adminToken: string | null;
}

/**
 * Starts `command` (a binary or `bun run src/main.ts`) with `serve`, and waits for the listening line.
 * `onSpawn` gets the process at once, for tests that watch it before it listens.
 */
export async function spawnServer(
  command: string[],
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; onSpawn?: (proc: ReturnType<typeof Bun.spawn>) => void } = {},
): Promise<ServerProcess> {
  const proc = Bun.spawn([...command, "serve", "--port", "0", ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...(options.env ?? {}) },
    stdout: "pipe",
    stderr: "pipe",
  });
  options.onSpawn?.(proc);
  let text = "";
  let errors = "";
  // Drained all along, so that the child never blocks on a full stderr pipe.
  const stderrDone = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) errors += decoder.decode(chunk, { stream: true });
  })();
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 20_000;
  while (!/inlet listening on (http:\/\/\S+)/.test(text)) {
    if (Date.now() > deadline) throw new Error(`server did not start: ${text}`);
    const { done, value } = await reader.read();
    if (done) {
      await stderrDone;
      throw new Error(`server exited before listening: ${text}${errors}`);
    }
    text += decoder.decode(value);
  }
  // Keep draining so the child never blocks on a full pipe.
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
  })();
  return {
    url: text.match(/inlet listening on (http:\/\/\S+)/)![1],
    proc,
    output: () => text,
    errors: () => errors,
    adminToken: text.match(/admin token[^:]*: (\S+)/)?.[1] ?? null,
  };
}

/** JSON call over HTTP to the management API of a server started by `spawnServer`, with `adminToken`. */
export async function adminApi(
  server: { url: string },
  adminToken: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Whether `/proc` shows processes' open files (Linux). */
export const canSeeOpenFiles = (() => {
  try {
    readdirSync("/proc/self/fd");
    return true;
  } catch {
    return false;
  }
})();

/** Whether process `pid` has the file at `path` open now (Linux: `/proc/PID/fd`); false once it has exited. */
export function hasOpen(pid: number, path: string): boolean {
  const target = realpathSync(path);
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
    } catch {
      return false; // closed meanwhile
    }
  });
}
