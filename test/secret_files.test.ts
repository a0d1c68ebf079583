import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, cli, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";
import { withTempDir } from "./support/temp_dir.ts";
import { waitFor } from "./support/wait.ts";

// The server's own secrets by file (README "Admin authentication and the server's own secrets"):
// commands run as the server's user, so a command workflow can read the server's environment from
// /proc/<its parent>/environ. Given by file, the secrets are not in it.

const FROM_SOURCE = [BUN, "run", join(ROOT, "src/main.ts")];
const KEY = Buffer.alloc(32, 9).toString("base64");
const LOCAL_NOTE = "note: trigger URLs and curl commands use";

/** What a command workflow finds in its parent's (the server's) environment. */
async function parentEnvironment(server: ServerProcess, adminToken: string): Promise<string> {
  const api = (path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method: body ? "POST" : "GET",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const created = await api("/api/triggers", {
    name: "environ",
    auth: { type: "none" },
    response: { mode: "workflow", timeoutMs: 10_000 },
    workflow: { kind: "command", argv: ["sh", "-c", "tr '\\0' '\\n' < /proc/$PPID/environ"] },
  });
  expect(created.status).toBe(201);
  const answer = await fetch((await created.json()).url, { method: "POST", body: "{}" });
  expect(answer.status).toBe(200);
  return answer.text();
}

test.skipIf(!existsSync("/proc/self/environ"))(
  "given by file, the admin token and secret key work and are not in the environment a command workflow can read; no note at start",
  async () => {
    await withTempDir("inlet-test-secret-files-", async (dir) => {
      const token = "admin-token-from-a-file-0123456789abcdef";
      writeFileSync(join(dir, "token"), `${token}\n`);
      writeFileSync(join(dir, "key"), `${KEY}\n`);
      const server = await spawnServer(FROM_SOURCE, ["--data-dir", join(dir, "data"), "--log-requests", "false"], {
        env: { INLET_ADMIN_TOKEN_FILE: join(dir, "token"), INLET_SECRET_KEY_FILE: join(dir, "key") },
      });
      try {
        const environ = await parentEnvironment(server, token);
        // It is the server's environment: the file's path is there, its content is not.
        expect(environ).toContain(`INLET_ADMIN_TOKEN_FILE=${join(dir, "token")}`);
        expect(environ).not.toContain(token);
        expect(environ).not.toContain(KEY);
        // The warnings are one write: once the base URL note is there, every start-up line is.
        await waitFor("start-up notes", () => server.errors().includes(LOCAL_NOTE));
        expect(server.errors()).not.toContain("/environ");
        expect(server.errors()).not.toContain("warning: the admin token");
      } finally {
        server.proc.kill();
        await server.proc.exited;
      }
    });
  },
);

test.skipIf(!existsSync("/proc/self/environ"))(
  "given through the environment, a command workflow can read them, as the start-up note says; a short token is warned about",
  async () => {
    await withTempDir("inlet-test-secret-env-", async (dir) => {
      const token = "admin-token-0123456789";
      const server = await spawnServer(FROM_SOURCE, ["--data-dir", join(dir, "data"), "--log-requests", "false"], { env: { INLET_ADMIN_TOKEN: token } });
      try {
        expect(await parentEnvironment(server, token)).toContain(`INLET_ADMIN_TOKEN=${token}`);
        await waitFor("start-up notes", () => server.errors().includes(LOCAL_NOTE));
        const lines = server.errors().split("\n");
        expect(lines).toContain(
          `warning: the admin token (INLET_ADMIN_TOKEN) is ${token.length} characters; use at least 32, which are much harder to guess (e.g. openssl rand -hex 32)`,
        );
        expect(lines).toContain(
          `note: INLET_ADMIN_TOKEN is in the server's environment, which command workflows can read from /proc/${server.proc.pid}/environ; set INLET_ADMIN_TOKEN_FILE to a file holding the value instead`,
        );
      } finally {
        server.proc.kill();
        await server.proc.exited;
      }
    });
  },
);

test("X and X_FILE both set: exit 2 naming both; an unreadable file: exit 1, one line naming the variable and the path; nothing started", async () => {
  await withTempDir("inlet-test-secret-files-", async (dir) => {
    writeFileSync(join(dir, "key"), KEY);
    const both = await cli(["serve", "--port", "0", "--data-dir", join(dir, "data")], { INLET_SECRET_KEY: KEY, INLET_SECRET_KEY_FILE: join(dir, "key") });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      "inlet: INLET_SECRET_KEY and INLET_SECRET_KEY_FILE are both set: give the value one way (INLET_SECRET_KEY_FILE keeps it out of the environment)\n",
    );
    const missing = join(dir, "no-such-token");
    const unreadable = await cli(["serve", "--port", "0", "--data-dir", join(dir, "data")], { INLET_ADMIN_TOKEN_FILE: missing });
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toBe(`inlet: INLET_ADMIN_TOKEN_FILE: cannot read ${missing} (no such file)\n`);
    expect(unreadable.stdout).toBe("");
    expect(existsSync(join(dir, "data"))).toBe(false);
  });
});
