import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, ROOT, spawnServer } from "./support/process.ts";

// Script workflows run in a child process that is the program itself in sandbox mode: in the
// compiled binary that is `inlet __sandbox-child`, with the QuickJS wasm embedded.
const work = mkdtempSync(join(tmpdir(), "inlet-bin-sandbox-"));
const empty = join(work, "empty");
let binary: string;

beforeAll(async () => {
  const built = join(work, "inlet");
  const proc = Bun.spawn([BUN, "run", "scripts/build.ts", built], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if ((await proc.exited) !== 0) throw new Error(`build failed: ${await new Response(proc.stderr).text()}`);
  mkdirSync(empty);
  binary = join(empty, "inlet");
  copyFileSync(built, binary);
  Bun.spawnSync(["chmod", "+x", binary]);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("the compiled binary runs script workflows in its own sandbox child, and kills a runaway one", async () => {
  const token = "binary-sandbox-admin-token-0123456789";
  const server = await spawnServer([binary], ["--log-requests", "false"], { cwd: empty, env: { INLET_ADMIN_TOKEN: token } });
  try {
    const create = async (workflow: object) =>
      (
        await fetch(`${server.url}/api/triggers`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ name: "script", response: { mode: "workflow" }, workflow }),
        })
      ).json();
    const post = (url: string) => fetch(url, { method: "POST", body: '{"n":2}', headers: { "Content-Type": "application/json" } });
    const answer = await create({
      kind: "script",
      source: "export default ($t, ctx) => ({ status: 201, body: { double: $t.body.n * 2, run: typeof ctx.runId } })",
    });
    const response = await post(answer.url);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ double: 4, run: "string" });
    const runaway = await create({ kind: "script", timeoutMs: 100, source: "export default () => { for (;;) Array(3e4).fill(1).sort() }" });
    const started = performance.now();
    expect((await post(runaway.url)).status).toBe(500);
    expect(performance.now() - started).toBeLessThan(1500);
    expect((await post(answer.url)).status).toBe(201);
  } finally {
    server.proc.kill("SIGTERM");
    expect(await server.proc.exited).toBe(0);
  }
}, 60_000);
