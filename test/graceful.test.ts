import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, cli, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";
import { connectionRefused, rawHttp } from "./support/raw_http.ts";
import { UUID, waitFor } from "./support/server.ts";

test("SIGTERM: in-flight requests are answered and stored, then exit 0", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-stop-"));
  try {
    const created = JSON.parse((await cli(["triggers", "create", "--name", "drain", "--data-dir", dir])).stdout);
    const server = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dir, "--log-requests", "false"]);
    const url = `${server.url}/webhooks/${created.token}`;
    // A slow upload keeps a request in flight while the signal arrives.
    let push!: (chunk: string | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (chunk) => (chunk === null ? controller.close() : controller.enqueue(new TextEncoder().encode(chunk)));
      },
    });
    const inFlight = fetch(url, { method: "POST", body, headers: { "Content-Type": "application/json" } });
    push('{"slow":');
    await Bun.sleep(150);
    server.proc.kill("SIGTERM");
    await Bun.sleep(150);
    push("true}");
    push(null);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await server.proc.exited).toBe(0);
    const runs = JSON.parse((await cli(["runs", "list", "--include-trigger", "--data-dir", dir])).stdout);
    expect(runs.map((r: any) => r.trigger.body)).toEqual([{ slow: true }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("SIGTERM: while a request in flight drains, new connections are refused; it still gets its workflow's answer", async () => {
  const dir = mkdtempSync(join(tmpdir(), "inlet-stop-"));
  // The http target answers only when the test releases it, so the request is in flight for as long as the test needs.
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async () => (arrived(), await released, Response.json({ drained: true }, { status: 201 })),
  });
  let server: ServerProcess | undefined;
  try {
    const input = {
      name: "held",
      response: { mode: "workflow", timeoutMs: 60_000 },
      workflow: { kind: "http", url: `http://127.0.0.1:${target.port}/`, retry: { maxAttempts: 1 } },
    };
    const created = JSON.parse((await cli(["triggers", "create", "--input", "-", "--data-dir", dir], {}, JSON.stringify(input))).stdout);
    server = await spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dir, "--log-requests", "false"]);
    const address = { host: new URL(server.url).hostname, port: Number(new URL(server.url).port) };
    // A fresh socket each time (a pooled keep-alive connection is not a new connection).
    const onNewConnection = () => rawHttp(address, "GET /healthz HTTP/1.1\r\nHost: inlet\r\nConnection: close\r\n\r\n");
    const inFlight = fetch(`${server.url}/webhooks/${created.token}`, {
      method: "POST",
      body: '{"held":true}',
      headers: { "Content-Type": "application/json" },
    });
    let settled = false;
    void inFlight.finally(() => (settled = true)).catch(() => {});
    await reached;
    expect(await onNewConnection()).toStartWith("HTTP/1.1 200");
    server.proc.kill("SIGTERM");
    // The signal is handled asynchronously: wait until a new connection is refused outright (not answered, not even a 503).
    await waitFor("a new connection refused after SIGTERM", () => connectionRefused(address));
    expect(settled).toBe(false);
    expect(server.proc.exitCode).toBeNull();
    release();
    const response = await inFlight;
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ drained: true });
    expect(response.headers.get("x-request-id")).toMatch(UUID);
    expect(await server.proc.exited).toBe(0);
    const runs = JSON.parse((await cli(["runs", "list", "--include-trigger", "--data-dir", dir])).stdout);
    expect(runs.map((r: any) => [r.status, r.requestId, r.trigger.body])).toEqual([["succeeded", response.headers.get("x-request-id"), { held: true }]]);
  } finally {
    release();
    if (server?.proc.exitCode === null) server.proc.kill("SIGKILL");
    await server?.proc.exited;
    target.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }
});
