import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";

const ADMIN = "durability-admin-token-0123456789";
const LOAD_MS = 700;
const LOOPS = 8;

test("SIGKILL mid-load: every acknowledged request has exactly one run, and unfinished runs execute after restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-durable-"));
  // The downstream target records every delivery by run id. Slow at first, so runs pile up
  // queued and some are mid-delivery when the server dies.
  let slow = true;
  const hits = new Map<string, number>();
  const target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const runId = request.headers.get("x-inlet-run-id")!;
      hits.set(runId, (hits.get(runId) ?? 0) + 1);
      if (slow) await Bun.sleep(20);
      return new Response("ok");
    },
  });
  const start = (concurrency: number) =>
    spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dir, "--log-requests", "false", "--run-concurrency", String(concurrency)], {
      env: { INLET_ADMIN_TOKEN: ADMIN },
    });
  const api = async (server: ServerProcess, path: string, init: RequestInit = {}) => {
    const response = await fetch(server.url + path, { ...init, headers: { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" } });
    return response.json() as Promise<any>;
  };
  let server: ServerProcess | null = null;
  try {
    server = await start(4);
    const trigger = await api(server, "/api/triggers", {
      method: "POST",
      body: JSON.stringify({
        name: "durable",
        auth: { type: "hmac-sha256" },
        workflow: { kind: "http", url: `http://127.0.0.1:${target.port}/`, retry: { maxAttempts: 3 } },
      }),
    });
    const { secret } = await api(server, `/api/triggers/${trigger.id}/secret`);

    // Signed requests from several loops until the server is killed under them.
    const acknowledged: string[] = [];
    let seq = 0;
    let killed = false;
    const loop = async () => {
      while (!killed) {
        const body = JSON.stringify({ seq: seq++, at: Date.now() });
        const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
        try {
          const response = await fetch(trigger.url, { method: "POST", body, headers: { "Content-Type": "application/json", "X-Signature": signature } });
          if (response.status === 200) acknowledged.push(response.headers.get("x-request-id")!);
          else throw new Error(`unexpected ${response.status}: ${await response.text()}`);
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const loops = Array.from({ length: LOOPS }, loop);
    await Bun.sleep(LOAD_MS);
    killed = true;
    server.proc.kill("SIGKILL");
    await server.proc.exited;
    await Promise.all(loops);
    server = null;
    expect(acknowledged.length).toBeGreaterThan(50);

    // What the dead process left on disk.
    const db = new Database(join(dir, "inlet.db"));
    const atCrash = db.query<{ id: string; request_id: string; status: string }, []>("SELECT id, request_id, status FROM runs").all();
    db.close();
    const byRequest = new Map<string, number>();
    for (const run of atCrash) byRequest.set(run.request_id, (byRequest.get(run.request_id) ?? 0) + 1);
    for (const requestId of acknowledged) expect(byRequest.get(requestId)).toBe(1);
    expect([...byRequest.values()].every((count) => count === 1)).toBe(true);
    const interrupted = new Set(atCrash.filter((r) => r.status === "running").map((r) => r.id));
    const unfinished = atCrash.filter((r) => r.status === "queued" || r.status === "running");
    expect(unfinished.length).toBeGreaterThan(0);

    // Restart on the same data dir: every run that was queued or running is executed.
    slow = false;
    server = await start(32);
    const deadline = Date.now() + 20_000;
    let runs: any[] = [];
    for (;;) {
      runs = [];
      let before = "";
      for (;;) {
        const page: any[] = await api(server, `/api/runs?triggerId=${trigger.id}&limit=500${before ? `&before=${before}` : ""}`);
        runs.push(...page);
        if (page.length < 500) break;
        before = page[page.length - 1].id;
      }
      if (runs.every((r) => r.status === "succeeded")) break;
      if (Date.now() > deadline)
        throw new Error(`runs not finished after restart: ${JSON.stringify(runs.filter((r) => r.status !== "succeeded").slice(0, 3))}`);
      await Bun.sleep(100);
    }
    expect(runs).toHaveLength(atCrash.length);
    for (const run of runs) expect(hits.get(run.id) ?? 0).toBeGreaterThanOrEqual(1);
    // At-least-once: a run delivered twice must have been mid-delivery when the process died.
    const twice = runs.filter((r) => (hits.get(r.id) ?? 0) > 1).map((r) => r.id);
    for (const id of twice) expect(interrupted.has(id)).toBe(true);

    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
    server = null;
  } finally {
    server?.proc.kill("SIGKILL");
    target.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test("SIGTERM: a run in progress is finished before the process exits 0", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-drain-"));
  const marker = join(dir, "finished");
  let server: ServerProcess | null = null;
  try {
    server = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dir, "--log-requests", "false"], { env: { INLET_ADMIN_TOKEN: ADMIN } });
    const headers = { Authorization: `Bearer ${ADMIN}`, "Content-Type": "application/json" };
    const trigger = await (
      await fetch(`${server.url}/api/triggers`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "drain", workflow: { kind: "command", argv: ["sh", "-c", `sleep 0.6; echo done > ${marker}`] } }),
      })
    ).json();
    expect((await fetch(trigger.url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } })).status).toBe(200);
    await Bun.sleep(200);
    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
    server = null;
    expect(await Bun.file(marker).text()).toBe("done\n");
    const db = new Database(join(dir, "inlet.db"));
    expect(db.query<{ status: string }, []>("SELECT status FROM runs").all()).toEqual([{ status: "succeeded" }]);
    db.close();
  } finally {
    server?.proc.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
