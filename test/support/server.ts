import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadServerConfig } from "../../src/config/load_server_config.ts";
import type { ServerConfig } from "../../src/config/server_config.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { waitFor } from "./wait.ts";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export interface TestServer extends RunningServer {
  dataDir: string;
  /**
   * A request to this server in process (`app.handle()`, no socket): for tests that need no
   * network behaviour. Only the URL's path and query matter.
   */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** JSON call to the management API with the admin token (in process). */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  /**
   * The trigger's Activity rows (newest first, up to 500) once they have settled: refusals are
   * answered before their row is durable (flood-safe), so a read right after may not see it yet.
   */
  activity(triggerId: string): Promise<any[]>;
  /** Creates a trigger through the API and returns it with its revealed secret. */
  createTrigger(input: Record<string, unknown>): Promise<any & { secret: string | null }>;
  close(): Promise<void>;
}

/** A real server on 127.0.0.1 with a throwaway data dir. */
export async function startTestServer(overrides: Partial<ServerConfig> = {}, args: string[] = []): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), "inlet-test-"));
  let server: RunningServer;
  try {
    const config = {
      ...loadServerConfig(["--port", "0", "--data-dir", dataDir, "--log-requests", "false", ...args], { INLET_ADMIN_TOKEN: ADMIN_TOKEN }),
      ...overrides,
    };
    server = await startServer(config);
  } catch (error) {
    if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const inProcess = (url: string, init?: RequestInit) => server.app.handle(new Request(new URL(url, server.url), init));
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await inProcess(server.url + path, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  };
  return {
    ...server,
    dataDir,
    fetch: inProcess,
    api,
    async activity(triggerId) {
      const read = async () => (await api("GET", `/api/triggers/${triggerId}/activity?limit=500`)).body as any[];
      let rows = await read();
      for (let i = 0; i < 100; i++) {
        await Bun.sleep(15);
        const again = await read();
        if (again.length === rows.length) return again;
        rows = again;
      }
      return rows;
    },
    async createTrigger(input) {
      const created = await api("POST", "/api/triggers", input);
      if (created.status !== 201) throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body)}`);
      const secret = await api("GET", `/api/triggers/${created.body.id}/secret`);
      return { ...created.body, secret: secret.status === 200 ? secret.body.secret : null };
    },
    async close() {
      try {
        await server.stop();
      } finally {
        // Also when the stop fails: a test run leaves no inlet-test-* folder behind.
        if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

export { waitFor };

/** Waits until `check` returns a truthy value (polling), or fails after `ms`. */
export const eventually = <T>(check: () => Promise<T> | T, ms = 5000, every = 25) => waitFor("condition", check, ms, every);

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
