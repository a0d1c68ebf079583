import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";

// README "Commands and flags": `inlet serve`'s flags, their environment twins and defaults, seen from outside.
const MAIN = join(ROOT, "src/main.ts");
/** Every setting unset, whatever the environment of the test run says. */
const CLEAN = {
  INLET_HOST: "",
  INLET_PORT: "",
  INLET_DATA_DIR: "",
  INLET_BASE_URL: "",
  INLET_PLUGINS_DIR: "",
  INLET_DATABASE_URL: "",
  INLET_ADMIN_TOKEN: "",
  INLET_SECRET_KEY: "",
  INLET_METRICS_TOKEN: "",
  INLET_LOG_REQUESTS: "false",
};
const TOKEN = "serve-settings-admin-token-0123456789";
const PLUGINS_DIR = join(ROOT, "test/plugins/plugins_dir");

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-serve-settings-"));
  dirs.push(dir);
  return dir;
};

/** A port nothing listens on now. */
const freePort = () => {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  probe.stop(true);
  return probe.port;
};

const stop = async (server: ServerProcess) => {
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
};

/** Creates a trigger through the API: its URL shows the base URL in force. */
const createTrigger = async (server: ServerProcess, token: string) => {
  const r = await fetch(`${server.url}/api/triggers`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "settings" }),
  });
  expect(r.status).toBe(201);
  return (await r.json()) as { url: string; token: string };
};

/** The lines `serve` printed, and the one line a script waits for among them. */
const listeningLines = (server: ServerProcess) =>
  server
    .output()
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("inlet listening on"));

test("with nothing set: 127.0.0.1, the data in ./inlet-data, URLs from http://HOST:PORT, one listening line with the port --port 0 chose", async () => {
  const cwd = tempDir();
  const server = await spawnServer([BUN, "run", MAIN], [], { cwd, env: CLEAN });
  const [, port] = server.output().match(/^inlet listening on http:\/\/127\.0\.0\.1:(\d+)$/m)!;
  expect(Number(port)).toBeGreaterThan(0);
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  expect(existsSync(join(cwd, "inlet-data", "inlet.db"))).toBe(true);
  expect(existsSync(join(cwd, "inlet-data", "secret.key"))).toBe(true);
  const trigger = await createTrigger(server, server.adminToken!);
  expect(trigger.url).toBe(`http://127.0.0.1:${port}/webhooks/${trigger.token}`);
  // The default body limit is 1 MiB: a body of exactly that is taken, one byte more is a 413.
  const sized = (bytes: number) => fetch(trigger.url, { method: "POST", body: `"${"a".repeat(bytes - 2)}"`, headers: { "Content-Type": "application/json" } });
  expect((await sized(1024 * 1024)).status).toBe(200);
  expect((await sized(1024 * 1024 + 1)).status).toBe(413);
  // One such line, the last: a script waiting for it may then rely on everything before.
  expect(listeningLines(server)).toEqual([`inlet listening on http://127.0.0.1:${port}`]);
  expect(server.output().trim().split("\n").at(-1)).toBe(`inlet listening on http://127.0.0.1:${port}`);
  await stop(server);
});

test("every setting from its environment twin: INLET_HOST, INLET_PORT, INLET_DATA_DIR, INLET_BASE_URL, INLET_PLUGINS_DIR, INLET_ADMIN_TOKEN", async () => {
  const dataDir = join(tempDir(), "data");
  const port = freePort();
  // `sh` drops the `--port 0` that spawnServer puts first, so that INLET_PORT decides.
  const withoutPortFlag = ["sh", "-c", `shift 3; exec "$0" run '${MAIN}' serve "$@"`, BUN];
  const env = {
    ...CLEAN,
    INLET_HOST: "localhost",
    INLET_PORT: String(port),
    INLET_DATA_DIR: dataDir,
    INLET_BASE_URL: "https://hooks.example.com/",
    INLET_PLUGINS_DIR: PLUGINS_DIR,
    INLET_ADMIN_TOKEN: TOKEN,
  };
  const server = await spawnServer(withoutPortFlag, [], { env });
  expect(listeningLines(server)).toEqual([`inlet listening on http://localhost:${port}`]);
  expect(server.adminToken).toBeNull();
  expect(server.output()).toContain("panel: https://hooks.example.com/\n");
  expect(existsSync(join(dataDir, "inlet.db"))).toBe(true);
  const plugins = (await (await fetch(`${server.url}/api/plugins`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as Array<{ id: string }>;
  expect(plugins.map((p) => p.id)).toContain("acme-list");
  const trigger = await createTrigger(server, TOKEN);
  expect(trigger.url).toBe(`https://hooks.example.com/webhooks/${trigger.token}`);
  await stop(server);
});

test("a flag wins over its environment twin", async () => {
  const [fromEnv, fromFlag] = [join(tempDir(), "env"), join(tempDir(), "flag")];
  const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    // Had the environment won, this start would fail: its host is not here, its port is taken.
    const env = {
      ...CLEAN,
      INLET_HOST: "203.0.113.9",
      INLET_PORT: String(taken.port),
      INLET_DATA_DIR: fromEnv,
      INLET_BASE_URL: "https://env.example.com",
      INLET_ADMIN_TOKEN: TOKEN,
    };
    const server = await spawnServer([BUN, "run", MAIN], ["--host", "127.0.0.1", "--data-dir", fromFlag, "--base-url", "https://flag.example.com"], { env });
    expect(listeningLines(server)).toEqual([expect.stringMatching(/^inlet listening on http:\/\/127\.0\.0\.1:\d+$/)]);
    expect(server.url).not.toEndWith(`:${taken.port}`);
    expect(server.output()).toContain("panel: https://flag.example.com/\n");
    expect(existsSync(join(fromFlag, "inlet.db"))).toBe(true);
    expect(existsSync(fromEnv)).toBe(false);
    await stop(server);
  } finally {
    taken.stop(true);
  }
});

test("INLET_METRICS_TOKEN: /metrics of a started `inlet serve` asks for it (or the admin token)", async () => {
  const metricsToken = "serve-settings-metrics-token-0123456789";
  const server = await spawnServer([BUN, "run", MAIN], ["--data-dir", tempDir()], {
    env: { ...CLEAN, INLET_ADMIN_TOKEN: TOKEN, INLET_METRICS_TOKEN: metricsToken },
  });
  const scrape = (token?: string) => fetch(`${server.url}/metrics`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const refused = await scrape();
  expect(refused.status).toBe(401);
  expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="inlet"');
  expect(await refused.json()).toEqual({ error: "unauthorized" });
  expect((await scrape("serve-settings-wrong-token-0123")).status).toBe(401);
  expect((await scrape(metricsToken)).status).toBe(200);
  expect((await scrape(TOKEN)).status).toBe(200);
  expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  await stop(server);
});
