import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropDatabase } from "./support/instances.ts";
import { freshDatabase, postgresAvailable, sharedPostgres } from "./support/postgres.ts";
import { adminApi, BUN, canSeeOpenFiles, cli, hasOpen, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";
import { waitFor } from "./support/server.ts";
import { sqlitePathIn } from "../src/store/sqlite/sqlite_store.ts";

// First start, lost admin tokens, and what `inlet serve` and the CLI tell a new user.
const dirs: string[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.proc.kill("SIGTERM");
    await s.proc.exited;
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-first-run-"));
  dirs.push(dir);
  return dir;
};
/** Without INLET_ADMIN_TOKEN, whatever the environment of the test run says. */
const NO_TOKEN = { INLET_ADMIN_TOKEN: "" };
const serve = async (args: string[], env: Record<string, string> = NO_TOKEN, onSpawn?: (proc: ReturnType<typeof Bun.spawn>) => void) => {
  const server = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--log-requests", "false", ...args], { env, onSpawn });
  servers.push(server);
  return server;
};
const stop = async (server: ServerProcess) => {
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
};
const adminCall = (server: ServerProcess, token: string) => fetch(`${server.url}/api/triggers`, { headers: { Authorization: `Bearer ${token}` } });

test("a first start that cannot bind its port stores no admin token: the next start prints one", async () => {
  const dir = dataDir();
  const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const failed = await cli(["serve", "--port", String(taken.port), "--data-dir", dir], NO_TOKEN);
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toBe("");
    expect(failed.stderr.trim().split("\n")).toHaveLength(1);
    expect(failed.stderr).toContain(`cannot listen on 127.0.0.1:${taken.port}: the port is in use`);
    expect(failed.stderr).toContain("--port");
  } finally {
    taken.stop(true);
  }
  const server = await serve(["--data-dir", dir]);
  expect(server.adminToken).toMatch(/^inlet_[A-Za-z0-9_-]{43}$/);
  expect((await adminCall(server, server.adminToken!)).status).toBe(200);
  await stop(server);
});

test("a second server on a data dir in use says at once that it waits, then exits 2 with one line saying why; CLI commands still work, and a server starts once the first is gone", async () => {
  const dir = dataDir();
  const first = await serve(["--data-dir", dir, "--port", "0"]);
  const second = await cli(["serve", "--port", "0", "--data-dir", dir], NO_TOKEN);
  expect(second.code).toBe(2);
  expect(second.stdout).toBe("");
  const [waiting, why, ...more] = second.stderr.trim().split("\n");
  expect(more).toEqual([]);
  expect(waiting).toBe(`note: another inlet serve holds the data dir ${dir}; waiting up to 10 s for it to stop`);
  expect(why).toContain(`another inlet serve is using the data dir ${dir}`);
  expect(second.stderr).toContain("--database-url");
  // The first still serves; the CLI still reads the data dir.
  expect((await adminCall(first, first.adminToken!)).status).toBe(200);
  const listed = await cli(["triggers", "list", "--json", "--data-dir", dir], NO_TOKEN);
  expect(listed.code).toBe(0);
  // A server killed outright leaves nothing that stops the next one.
  first.proc.kill("SIGKILL");
  await first.proc.exited;
  const next = await serve(["--data-dir", dir, "--port", "0"]);
  expect((await adminCall(next, first.adminToken!)).status).toBe(200);
  await stop(next);
}, 40_000);

// Where /proc shows which files a process has open: that is how the test sees the new server wait.
test.skipIf(!canSeeOpenFiles)(
  "a restart while the old server still drains a request waits for the data dir, then serves",
  async () => {
    const dir = dataDir();
    const env = { INLET_ADMIN_TOKEN: "restart-admin-token-0123456789abcdef" };
    const runs = async (server: ServerProcess, triggerId: string) =>
      (await adminApi(server, env.INLET_ADMIN_TOKEN, "GET", `/api/runs?triggerId=${triggerId}`)).body as any[];
    const old = await serve(["--data-dir", dir], env);
    // A request in flight whose answer is a command that runs until the test creates `release` ($0 of
    // the script): the old server's stop finishes it, and holds the data dir's serve.lock until then.
    // The command gives up by itself after 30 s: it runs in its own process group, so a server killed
    // outright (a test run cut short) would leave it polling a file that never comes.
    const release = join(dir, "release");
    const { body: t } = await adminApi(old, env.INLET_ADMIN_TOKEN, "POST", "/api/triggers", {
      name: "slow",
      response: { mode: "workflow", timeoutMs: 30_000 },
      workflow: {
        kind: "command",
        argv: ["sh", "-c", 'i=0; while [ ! -e "$0" ] && [ $i -lt 1500 ]; do sleep 0.02; i=$((i+1)); done; echo \'{"drained":true}\'', release],
        timeoutMs: 30_000,
      },
    });
    const inFlight = fetch(`${old.url}/webhooks/${t.token}`, { method: "POST", body: "{}" });
    inFlight.catch(() => {}); // awaited below
    await waitFor("the run is running", async () => (await runs(old, t.id))[0]?.status === "running");

    old.proc.kill("SIGTERM");
    let fresh: ReturnType<typeof Bun.spawn> | undefined;
    let listeningAt = Infinity;
    const starting: Promise<ServerProcess> = serve(["--data-dir", dir], env, (proc) => (fresh = proc)).then(
      (server) => ((listeningAt = performance.now()), server),
    );
    starting.catch(() => {}); // awaited below, where a start that failed is reported
    try {
      await waitFor("the new server at the lock", () => fresh && (fresh.exitCode !== null || hasOpen(fresh.pid, join(dir, "serve.lock"))), 15_000, 10);
      // Seen waiting for a whole second of the old one's stop: alive, not listening, its store (inlet.db,
      // opened only once the lock is taken) not open. Without the wait it exits 2 at once; were the lock
      // let go before the drain, it would open the store within milliseconds. (A window, not a wait for
      // an event: what is shown is that nothing happens.)
      const until = performance.now() + 1000;
      while (performance.now() < until) {
        expect({ old: old.proc.exitCode, fresh: fresh!.exitCode, store: hasOpen(fresh!.pid, sqlitePathIn(dir)), listening: listeningAt < Infinity }).toEqual({
          old: null,
          fresh: null,
          store: false,
          listening: false,
        });
        await Bun.sleep(10);
      }
      const releasedAt = performance.now();
      writeFileSync(release, "");

      // The old one answers its request, exits 0; only then (after the release) does the new one listen.
      const answer = await inFlight;
      expect([answer.status, await answer.json()]).toEqual([200, { drained: true }]);
      expect(await old.proc.exited).toBe(0);
      const next = await starting;
      expect(listeningAt).toBeGreaterThan(releasedAt);
      // And serves the same data dir: the drained run is there, a new request runs.
      expect((await fetch(`${next.url}/webhooks/${t.token}`, { method: "POST", body: "{}" })).status).toBe(200);
      expect((await runs(next, t.id)).map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
      await stop(next);
    } finally {
      // Whatever failed: the old server's command ends, and the new server, once it listens, is
      // among those afterAll stops (or has exited).
      writeFileSync(release, "");
      await starting.catch(() => {});
    }
  },
  40_000,
);

test("admin-token reset prints a new token that a running server accepts within a second; the old one is refused with a hint", async () => {
  const dir = dataDir();
  const server = await serve(["--data-dir", dir]);
  const old = server.adminToken!;
  expect(old).toMatch(/^inlet_/);

  const reset = await cli(["admin-token", "reset", "--data-dir", dir], NO_TOKEN);
  expect(reset.stderr).toBe("");
  expect(reset.code).toBe(0);
  const fresh = reset.stdout.match(/^new admin token \(shown once; keep it, only its hash is stored\): (inlet_\S+)$/m)?.[1];
  expect(fresh).toMatch(/^inlet_[A-Za-z0-9_-]{43}$/);
  expect(reset.stdout).toContain("the previous one no longer works");

  await waitFor("the new admin token is accepted", async () => (await adminCall(server, fresh!)).status === 200, 5000, 100);
  const refused = await adminCall(server, old);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({ error: "unauthorized" });
  expect(refused.headers.get("www-authenticate")).toContain("inlet admin-token reset");
  await stop(server);

  // A later start does not print a token, and says how to get a new one.
  const again = await serve(["--data-dir", dir]);
  expect(again.adminToken).toBeNull();
  expect(again.output()).toContain(`lost the token printed at the first start? 'inlet admin-token reset --data-dir ${dir}' prints a new one`);
  expect((await adminCall(again, fresh!)).status).toBe(200);
  await stop(again);
});

test("a server started with INLET_ADMIN_TOKEN keeps that token after an admin-token reset by another process", async () => {
  const dir = dataDir();
  const token = "env-admin-token-0123456789abcdef0123";
  const server = await serve(["--data-dir", dir], { INLET_ADMIN_TOKEN: token });
  const reset = await cli(["admin-token", "reset", "--data-dir", dir], NO_TOKEN);
  expect(reset.code).toBe(0);
  expect(reset.stdout).toContain("a server started with INLET_ADMIN_TOKEN keeps that token");
  const fresh = reset.stdout.match(/: (inlet_\S+)$/m)![1];
  // Triggers made after the reset, once the server serves them, prove that a reload (which reads the
  // triggers, then the token) has run since: two, one after the other, so the first reload's token
  // read is over. The environment's token still works there, the reset one not.
  for (const name of ["after-reset-1", "after-reset-2"]) {
    const made = JSON.parse((await cli(["triggers", "create", "--name", name, "--data-dir", dir], NO_TOKEN)).stdout);
    await waitFor(
      `the server serves ${name}`,
      async () => (await fetch(`${server.url}/webhooks/${made.token}`, { method: "POST", body: "{}" })).status === 200,
    );
  }
  expect((await adminCall(server, token)).status).toBe(200);
  expect((await adminCall(server, fresh)).status).toBe(401);
  await stop(server);
});

describe.skipIf(!postgresAvailable())("on PostgreSQL", () => {
  test("admin-token reset with --database-url: the running instance takes the new token, the old one is refused", async () => {
    const url = await freshDatabase((await sharedPostgres())!);
    try {
      const server = await serve(["--database-url", url, "--data-dir", dataDir()]);
      const old = server.adminToken!;
      expect(old).toMatch(/^inlet_/);
      const reset = await cli(["admin-token", "reset", "--database-url", url], NO_TOKEN);
      expect(reset.stderr).toBe("");
      const fresh = reset.stdout.match(/: (inlet_\S+)$/m)![1];
      await waitFor("the new admin token is accepted", async () => (await adminCall(server, fresh)).status === 200, 5000, 100);
      expect((await adminCall(server, old)).status).toBe(401);
      await stop(server);
    } finally {
      await dropDatabase(url);
    }
  }, 60_000);
});

test("admin-token reset refuses, on one line, where it cannot help", async () => {
  const missing = join(dataDir(), "nothing-here");
  const none = await cli(["admin-token", "reset", "--data-dir", missing], NO_TOKEN);
  expect(none.code).toBe(2);
  expect(none.stderr).toBe(
    `inlet: ${missing} has no inlet.db: no admin token to reset there (check --data-dir; the first 'inlet serve' generates and prints one)\n`,
  );
  const env = await cli(["admin-token", "reset", "--data-dir", missing], { INLET_ADMIN_TOKEN: "from-the-environment-0123456789" });
  expect(env.code).toBe(2);
  expect(env.stderr).toContain("INLET_ADMIN_TOKEN is set");
  const alone = await cli(["admin-token"]);
  expect(alone.code).toBe(2);
  expect(alone.stdout).toContain("inlet admin-token reset");
});

test("start-up names the panel and says when trigger URLs only work on this machine; the CLI's URLs are the server's", async () => {
  const dir = dataDir();
  const server = await serve(["--data-dir", dir], { INLET_ADMIN_TOKEN: "first-run-admin-token-0123456789" });
  const lines = server.output().trim().split("\n");
  expect(lines.at(-1)).toBe(`inlet listening on ${server.url}`);
  expect(lines).toContain(`panel: ${server.url}/`);
  expect((await fetch(`${server.url}/`)).headers.get("content-type")).toContain("text/html");
  await waitFor(
    "the local-only note",
    () => server.errors().includes(`note: trigger URLs and curl commands use ${server.url}, which only this machine can call`),
    5000,
  );
  expect(server.errors()).toContain("INLET_BASE_URL (or --base-url)");

  // No --base-url: the CLI uses the running server's real port (chosen by --port 0), not 8080.
  const created = JSON.parse((await cli(["triggers", "create", "--name", "orders", "--auth", "bearer", "--data-dir", dir])).stdout);
  expect(created.url).toBe(`${server.url}/webhooks/${created.token}`);
  expect(created.curl).toContain(created.url);
  const table = await cli(["triggers", "list", "--data-dir", dir]);
  expect(table.code).toBe(0);
  const [header, row] = table.stdout.trim().split("\n");
  expect(header.split(/\s+/)).toEqual(["NAME", "ID", "AUTH", "METHODS", "WORKFLOW", "URL"]);
  expect(row.split(/\s{2,}/)).toEqual(["orders", created.id, "bearer", "POST", "none", created.url]);
  const json = JSON.parse((await cli(["triggers", "list", "--json", "--data-dir", dir])).stdout);
  expect(json.map((t: { url: string }) => t.url)).toEqual([created.url]);
  // Server flags before the subcommand work; no subcommand prints the group's usage.
  expect((await cli(["triggers", "--data-dir", dir, "list", "--json"])).stdout).toBe(JSON.stringify(json, null, 2) + "\n");
  const usage = await cli(["triggers", "--data-dir", dir]);
  expect(usage.code).toBe(2);
  expect(usage.stdout).toContain("inlet triggers list [--json]");
  expect(usage.stderr).toBe("inlet: 'triggers' needs a command (its usage is above)\n");
  await stop(server);

  // A server started with --base-url records it: the CLI prints that URL, and there is no note.
  const proxied = await serve(["--data-dir", dir, "--base-url", "https://hooks.example.com"], { INLET_ADMIN_TOKEN: "first-run-admin-token-0123456789" });
  expect(proxied.output()).toContain("panel: https://hooks.example.com/");
  const shown = JSON.parse((await cli(["triggers", "show", created.id, "--data-dir", dir])).stdout);
  expect(shown.url).toBe(`https://hooks.example.com/webhooks/${created.token}`);
  // --base-url (or INLET_BASE_URL) given to the command wins over the recorded one.
  const mine = JSON.parse((await cli(["triggers", "show", created.id, "--data-dir", dir], { INLET_BASE_URL: "https://other.example.com" })).stdout);
  expect(mine.url).toBe(`https://other.example.com/webhooks/${created.token}`);
  // So do --host/--port given to the command: the URL is built from them.
  const ported = JSON.parse((await cli(["triggers", "show", created.id, "--data-dir", dir, "--port", "9000"])).stdout);
  expect(ported.url).toBe(`http://127.0.0.1:9000/webhooks/${created.token}`);
  await stop(proxied);
  expect(proxied.errors()).not.toContain("only this machine can call");
});

test("a trigger whose plugin is not loaded is named at start, and one created later in the log", async () => {
  const dir = dataDir();
  const pluginsDir = join(ROOT, "test/plugins/plugins_dir");
  const withPlugins = ["--data-dir", dir, "--plugins-dir", pluginsDir];
  const first = JSON.parse((await cli(["triggers", "create", "--name", "acme", "--app", "acme-list", "--app-secret", "s3cret", ...withPlugins])).stdout);
  const server = await serve(["--data-dir", dir], { INLET_ADMIN_TOKEN: "first-run-admin-token-0123456789" });
  await waitFor(
    "the start-up warning",
    () => server.errors().includes(`warning: trigger "acme" (${first.id}) uses plugin "acme-list", which is not loaded`),
    5000,
  );
  expect(server.errors()).toContain("start with --plugins-dir DIR holding acme-list.ts");
  const loaded = await cli(["triggers", "list", "--data-dir", dir, "--plugins-dir", pluginsDir]);
  expect(loaded.code).toBe(0);
  expect(loaded.stdout).toContain("app acme-list");
  expect(loaded.stdout).not.toContain("plugin not loaded");
  expect((await cli(["triggers", "list", "--data-dir", dir])).stdout).toContain("app acme-list (plugin not loaded)");

  const later = JSON.parse((await cli(["triggers", "create", "--name", "tofu", "--app", "acme-tofu", ...withPlugins])).stdout);
  const logged = await waitFor(
    "the warning for a trigger created while the server runs",
    () =>
      server
        .errors()
        .split("\n")
        .find((line) => line.includes(`(${later.id}) uses plugin \\"acme-tofu\\"`)),
    5000,
    50,
  );
  expect(JSON.parse(logged)).toMatchObject({ level: "warn" });
  await stop(server);
  expect(server.errors().split(later.id)).toHaveLength(2);
});

test("the admin token in force is accepted from the server's first answer, before its listening line", async () => {
  const dir = dataDir();
  // A stored token first (a generated one), then INLET_ADMIN_TOKEN takes over on the next start.
  await stop(await serve(["--data-dir", dir]));
  const free = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = free.port;
  free.stop(true);
  const token = "first-answer-admin-token-0123456789";
  const proc = Bun.spawn([BUN, "run", join(ROOT, "src/main.ts"), "serve", "--port", String(port), "--data-dir", dir, "--log-requests", "false"], {
    env: { ...process.env, INLET_ADMIN_TOKEN: token },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    const statuses: number[] = [];
    const deadline = Date.now() + 15_000;
    // Asked as fast as possible from before the port is bound until a few answers came.
    while (statuses.length < 20 && Date.now() < deadline) {
      try {
        statuses.push((await fetch(`http://127.0.0.1:${port}/api/triggers`, { headers: { Authorization: `Bearer ${token}` } })).status);
      } catch {
        // Not listening yet.
      }
    }
    expect(statuses).toEqual(Array(20).fill(200));
  } finally {
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  }
});
