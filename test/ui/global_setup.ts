import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ADMIN_TOKEN } from "./support.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Starts `inlet serve` from source (Playwright runs on Node; the server runs on the project's Bun)
 * and hands its URL to the workers through the environment. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-ui-"));
  const bun = join(ROOT, "node_modules", ".bin", "bun");
  const child = spawn(bun, ["run", "src/main.ts", "serve", "--port", "0", "--data-dir", dataDir, "--plugins-dir", join(ROOT, "test", "ui", "plugins")], {
    cwd: ROOT,
    env: { ...process.env, INLET_ADMIN_TOKEN: ADMIN_TOKEN, INLET_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inlet did not start within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/inlet listening on (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`inlet exited (${code}) before listening:\n${output}`));
    });
  });
  // Keep draining so the server never blocks on a full pipe.
  child.stdout.removeAllListeners("data").on("data", () => {});
  child.stderr.removeAllListeners("data").on("data", (chunk: Buffer) => process.env.INLET_UI_DEBUG && process.stderr.write(chunk));
  child.removeAllListeners("exit");
  process.env.INLET_UI_URL = url;
  process.env.INLET_UI_DATA_DIR = dataDir;

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
