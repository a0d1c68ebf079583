import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/process.ts";

// `npm start &` and then a stop aimed at npm (kill, Ctrl-C in its terminal, a supervisor) must stop
// inlet: npm forwards SIGTERM/SIGINT to the script's process only, which `exec` makes inlet itself.
const dir = mkdtempSync(join(tmpdir(), "inlet-npm-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function npmStart() {
  const proc = Bun.spawn(["npm", "start", "--", "--port", "0", "--data-dir", dir, "--log-requests", "false"], {
    cwd: ROOT,
    env: { ...process.env, INLET_ADMIN_TOKEN: "npm-start-admin-token-0123456789" },
    stdout: "pipe",
    stderr: "ignore",
  });
  let text = "";
  const decoder = new TextDecoder();
  const reader = proc.stdout.getReader();
  while (!/inlet listening on (http:\/\/\S+)/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`npm start exited before listening: ${text}`);
    text += decoder.decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return { proc, url: text.match(/inlet listening on (http:\/\/\S+)/)![1] };
}

const refused = async (url: string) => {
  try {
    await fetch(`${url}/healthz`);
    return false;
  } catch {
    return true;
  }
};

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} to the npm process stops the server, gracefully (exit 0), and frees its port`, async () => {
    const { proc, url } = await npmStart();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    proc.kill(signal);
    expect(await proc.exited).toBe(0);
    // npm exits after its script's process: nothing is left listening.
    expect(await refused(url)).toBe(true);
  }, 60_000);
}
