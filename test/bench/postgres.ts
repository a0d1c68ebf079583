/**
 * The shared-store case of `npm run bench`: a throwaway durable PostgreSQL cluster (fsync on: each
 * commit flushed before its answer, as on SQLite), one fresh database, two `inlet serve --database-url …` instances
 * with the same INLET_SECRET_KEY and admin token.
 *
 * Pinning on the 2-core machine: PostgreSQL (the postmaster and every process it forks) and both
 * instances share core 1, the one core the SQLite server has to itself in the other cases; wrk
 * keeps core 0. Each case gets the same CPU budget, so the ratio to SQLite is the cost of the
 * shared store (a client-server database, a network round trip per batch, two event loops); with
 * one core for the servers this cannot show scale-out.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { freshDatabase, startCluster, type PostgresCluster } from "../support/postgres.ts";

export interface Instance {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
}

type StartPinned = (command: string[], env: Record<string, string>, pattern: RegExp) => Promise<Instance>;

export interface PostgresBench {
  /** The two instances: `a` gets the admin calls, both get load. */
  a: Instance;
  b: Instance;
  /** PostgreSQL's server_version. */
  version: string;
  /** Runs recorded for a trigger, counted in the database. */
  runCount(triggerId: string): Promise<number>;
  /**
   * Outside the measured time, after a PostgreSQL case: VACUUM and CHECKPOINT now, so autovacuum
   * and the checkpointer do not run on core 1 while the next (SQLite or bare) case is measured.
   */
  settle(): Promise<void>;
  /** Stops the instances gracefully (their pending commits drain), keeps the database readable. */
  stopInstances(): Promise<void>;
  /** Stops everything and removes the cluster; safe to call twice and after a failure. */
  close(): Promise<void>;
}

/** Every pid under `root` (itself included), from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the ppid is the second field after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const all: number[] = [];
  const walk = (pid: number) => {
    all.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return all;
}

/** Pins the cluster's running processes to `core`; backends forked later inherit the postmaster's mask. */
function pinCluster(cluster: PostgresCluster, core: number): number {
  if (!Bun.which("taskset")) return 0;
  const postmaster = Number(readFileSync(join(cluster.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const pids = descendants(postmaster);
  for (const pid of pids) {
    const r = Bun.spawnSync(["taskset", "-a", "-p", "-c", String(core), String(pid)], { stdout: "ignore", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`taskset on PostgreSQL pid ${pid}: ${r.stderr.toString()}`);
  }
  return pids.length;
}

export async function startPostgresBench(startPinned: StartPinned, adminToken: string, log: (line: string) => void): Promise<PostgresBench> {
  let cluster: PostgresCluster | null = null;
  let sql: SQL | null = null;
  const instances: Instance[] = [];
  const dirs: string[] = [];
  let stopped = false;
  const stopInstances = async () => {
    if (stopped) return;
    stopped = true;
    for (const i of instances) i.proc.kill("SIGTERM");
    await Promise.all(instances.map((i) => Promise.race([i.proc.exited, Bun.sleep(15_000).then(() => i.proc.kill("SIGKILL"))])));
  };
  const close = async () => {
    await stopInstances();
    await sql?.close().catch(() => {});
    sql = null;
    await cluster?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  try {
    cluster = await startCluster({ durable: true });
    const pinned = pinCluster(cluster, 1);
    const dbUrl = await freshDatabase(cluster.url, "inlet_bench");
    log(`PostgreSQL cluster on port ${cluster.port} (fsync on), ${pinned} processes pinned to core 1; database ${new URL(dbUrl).pathname.slice(1)}`);
    // Both instances share the key (secrets sealed by one open in the other) and the admin token.
    const env = { INLET_ADMIN_TOKEN: adminToken, INLET_SECRET_KEY: randomBytes(32).toString("base64") };
    for (const name of ["a", "b"]) {
      const dir = mkdtempSync(join(tmpdir(), `inlet-bench-pg-${name}-`));
      dirs.push(dir);
      // One after the other: the first applies the migrations (the second would wait on the advisory lock anyway).
      instances.push(
        await startPinned(
          [process.execPath, "run", "src/main.ts", "serve", "--port", "0", "--data-dir", dir, "--database-url", dbUrl, "--log-requests", "false"],
          env,
          /inlet listening on (http:\/\/\S+)/,
        ),
      );
    }
    sql = new SQL(dbUrl, { max: 1 });
    const db = sql;
    const version = String((await db`SHOW server_version`)[0].server_version).split(" ")[0];
    return {
      a: instances[0],
      b: instances[1],
      version,
      runCount: async (triggerId) => Number((await db`SELECT count(*)::int AS n FROM runs WHERE trigger_id = ${triggerId}`)[0].n),
      settle: async () => {
        await db.unsafe("VACUUM (ANALYZE) runs, activity, dedup_keys");
        await db.unsafe("CHECKPOINT");
      },
      stopInstances,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Waits until instance `other` routes `token` (it learns of new triggers by NOTIFY, or the
 * one-second revision poll): POSTs `body` to its webhook URL until the answer is no longer 404.
 * Returns the milliseconds it took and how many probes were acknowledged (each recorded a run).
 */
export async function waitUntilKnown(other: Instance, token: string, body: string): Promise<{ ms: number; acknowledged: number }> {
  const started = performance.now();
  for (;;) {
    const r = await fetch(`${other.url}/webhooks/${token}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    await r.arrayBuffer();
    if (r.status >= 200 && r.status < 300) return { ms: Math.round(performance.now() - started), acknowledged: 1 };
    if (r.status !== 404) throw new Error(`probing the second instance: ${r.status}`);
    if (performance.now() - started > 10_000) throw new Error("the second instance did not learn of the new trigger within 10 s");
    await Bun.sleep(5);
  }
}
