import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, cli, ROOT, spawnServer } from "./support/process.ts";

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
