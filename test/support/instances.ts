import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { BUN, ROOT } from "./process.ts";
import { waitFor as pollFor } from "./server.ts";

/** Cross-instance conditions get a generous default: CI machines are busy. */
export const waitFor = <T>(what: string, check: () => Promise<T> | T, ms = 30_000, every = 25) => pollFor(what, check, ms, every);

/**
 * `inlet serve` processes sharing one PostgreSQL database, for multi-instance end-to-end tests.
 * Unlike `spawnServer`, a start that fails or times out kills its process, stderr is drained
 * (kept for failure messages), and every instance is killed by `stopAll()`.
 */

export interface Instance {
  name: string;
  url: string;
  pid: number;
  proc: ReturnType<typeof Bun.spawn>;
  /** Admin token this instance printed (generated on a new database), or null. */
  printedToken: string | null;
  /** Everything it wrote so far (stdout, then stderr). */
  output(): string;
  /** Management API call with `token`. */
  api(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** POSTs to `/webhooks/<token>` on this instance. */
  webhook(webhookToken: string, body: string, headers?: Record<string, string>): Promise<Response>;
  kill(signal?: NodeJS.Signals | number): Promise<void>;
}

const live = new Set<Instance>();

/** A random INLET_SECRET_KEY (base64 of 32 bytes); give the same one to every instance of a database. */
export const newSecretKey = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");

export interface InstanceOptions {
  databaseUrl: string;
  secretKey: string;
  /** INLET_ADMIN_TOKEN; null = unset (a new database then generates and prints one). */
  adminToken: string | null;
  args?: string[];
  startTimeoutMs?: number;
}

/** Starts `bun run src/main.ts serve` on a free port against `databaseUrl`; resolves once it listens. */
export async function startInstance(name: string, options: InstanceOptions): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), `inlet-${name}-`));
  const proc = Bun.spawn(
    [
      BUN,
      "run",
      join(ROOT, "src/main.ts"),
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--database-url",
      options.databaseUrl,
      "--log-requests",
      "false",
      ...(options.args ?? []),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, INLET_SECRET_KEY: options.secretKey, INLET_ADMIN_TOKEN: options.adminToken ?? "" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  let out = "";
  let err = "";
  const drain = async (stream: ReadableStream<Uint8Array>, append: (s: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) append(decoder.decode(chunk, { stream: true }));
  };
  const stdoutDone = drain(proc.stdout, (s) => (out += s)).catch(() => {});
  drain(proc.stderr, (s) => (err += s)).catch(() => {});
  const listening = /inlet listening on (http:\/\/\S+)/;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  let exited = false;
  proc.exited.then(() => (exited = true));
  while (!listening.test(out)) {
    if (exited || Date.now() > deadline) {
      proc.kill("SIGKILL");
      await proc.exited;
      await stdoutDone;
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`${name} ${exited ? "exited before listening" : "did not start in time"}:\n${out}\n${err}`);
    }
    await Bun.sleep(20);
  }
  const url = out.match(listening)![1];
  const defaultToken = options.adminToken;
  const instance: Instance = {
    name,
    url,
    pid: proc.pid,
    proc,
    printedToken: out.match(/admin token[^:]*: (\S+)/)?.[1] ?? null,
    output: () => `${out}${err}`,
    async api(method, path, body, token) {
      const response = await fetch(url + path, {
        method,
        headers: { Authorization: `Bearer ${token ?? defaultToken}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    webhook(webhookToken, body, headers = {}) {
      return fetch(`${url}/webhooks/${webhookToken}`, { method: "POST", body, headers: { "Content-Type": "application/json", ...headers } });
    },
    async kill(signal = "SIGKILL") {
      if (!exited) proc.kill(signal);
      await proc.exited;
      live.delete(instance);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  live.add(instance);
  return instance;
}

/** Kills every instance still running (SIGKILL: a test's end needs no graceful stop). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((i) => i.kill("SIGKILL")));
}

/** Drops a database made by `freshDatabase`, disconnecting whatever still uses it. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const admin = new SQL(url.toString(), { max: 1 });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}
