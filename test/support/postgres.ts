import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";

/**
 * Throwaway PostgreSQL clusters for tests and benchmarks: `initdb` into a temp dir, `pg_ctl start`
 * on 127.0.0.1 and a free port, trust authentication. PostgreSQL refuses to run as root, so as
 * root the cluster belongs to the `postgres` user (Debian's package creates it) and every
 * `pg_ctl` runs through `runuser`.
 */

/** Where the server binaries are: INLET_TEST_PG_BIN, else Debian's newest /usr/lib/postgresql/N/bin. */
export function postgresBinDir(): string | null {
  const fromEnv = process.env.INLET_TEST_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, "initdb")) ? fromEnv : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], "bin") : null;
}

export interface PostgresCluster {
  /** `postgres://inlet@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  dataDir: string;
  /** `pg_ctl stop -m fast`: clients see the server go away. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

async function run(argv: string[], owner: string | null): Promise<string> {
  const command = owner ? ["runuser", "-u", owner, "--", ...argv] : argv;
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code}: ${err || out}`);
  return out;
}

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

export interface ClusterOptions {
  /**
   * Durable like production (fsync on). Tests turn it off to go faster: a throwaway cluster
   * never survives a machine crash anyway; benchmarks keep it on to compare with SQLite's FULL sync.
   */
  durable?: boolean;
}

/** Creates and starts a new cluster. Throws (never skips) when the binaries are there but it fails. */
export async function startCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL server binaries not found (install Debian's postgresql package, or set INLET_TEST_PG_BIN)");
  const owner = isRoot() ? "postgres" : null;
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-pg-"));
  if (owner) {
    const uid = Number((await run(["id", "-u", owner], null)).trim());
    const gid = Number((await run(["id", "-g", owner], null)).trim());
    chownSync(dataDir, uid, gid);
  }
  chmodSync(dataDir, 0o700);
  await run([join(bin, "initdb"), "-D", dataDir, "-U", "inlet", "--auth=trust", "-E", "UTF8", "--no-instructions", "--locale=C"], owner);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dataDir}`,
    "-c max_connections=200",
    ...(options.durable ? [] : ["-c fsync=off", "-c full_page_writes=off", "-c synchronous_commit=off"]),
  ].join(" ");
  const log = join(dataDir, "server.log");
  const pgCtl = (...args: string[]) => run([join(bin, "pg_ctl"), "-D", dataDir, "-w", "-t", "30", ...args], owner);
  const start = async () => {
    await pgCtl("-l", log, "-o", settings, "start");
  };
  await start();
  // However this process ends (even killed), the cluster goes with it: a watchdog shell waits for
  // this process to disappear, then stops the server and removes its files.
  const stopArgv = [join(bin, "pg_ctl"), "-D", dataDir, "-m", "immediate", "stop"].map((a) => `'${a}'`).join(" ");
  const watchdog = Bun.spawn(
    [
      "sh",
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${owner ? `runuser -u ${owner} -- ` : ""}${stopArgv} >/dev/null 2>&1; rm -rf '${dataDir}'`,
    ],
    { stdin: "ignore", stdout: "ignore", stderr: "ignore" },
  );
  watchdog.unref();
  let gone = false;
  return {
    url: `postgres://inlet@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    start,
    stop: async () => {
      await pgCtl("-m", "fast", "stop");
    },
    destroy: async () => {
      if (gone) return;
      gone = true;
      await pgCtl("-m", "immediate", "stop").catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
      watchdog.kill();
    },
  };
}

let shared: Promise<{ url: string; cluster: PostgresCluster | null }> | null = null;

/**
 * The server every PostgreSQL test shares: INLET_TEST_DATABASE_URL (`.ci/run` starts one), else a
 * cluster started once for this test process. null only when PostgreSQL is not installed and
 * nothing requires it (INLET_TEST_REQUIRE_POSTGRES=1 makes that a failure instead).
 */
export async function sharedPostgres(): Promise<string | null> {
  const fromEnv = process.env.INLET_TEST_DATABASE_URL;
  if (fromEnv) return fromEnv;
  if (!postgresBinDir()) {
    if (process.env.INLET_TEST_REQUIRE_POSTGRES === "1") throw new Error("INLET_TEST_REQUIRE_POSTGRES=1 but PostgreSQL is not installed");
    return null;
  }
  // Stopped by its watchdog when this process ends.
  shared ??= startCluster().then((cluster) => ({ url: cluster.url, cluster }));
  return (await shared).url;
}

/**
 * Whether PostgreSQL tests can run here (checked synchronously, for `describe.skipIf`). Where
 * INLET_TEST_REQUIRE_POSTGRES=1 (`.ci/run`), a missing PostgreSQL throws instead of skipping.
 */
export const postgresAvailable = (): boolean => {
  const available = Boolean(process.env.INLET_TEST_DATABASE_URL) || postgresBinDir() !== null;
  if (!available && process.env.INLET_TEST_REQUIRE_POSTGRES === "1") throw new Error("INLET_TEST_REQUIRE_POSTGRES=1 but PostgreSQL is not installed");
  return available;
};

let counter = 0;

/** A new, empty database on `serverUrl`; returns its URL. */
export async function freshDatabase(serverUrl: string, prefix = "inlet_test"): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new SQL(serverUrl, { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
