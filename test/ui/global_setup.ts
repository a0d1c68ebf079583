import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FullConfig } from "@playwright/test";
import { ADMIN_TOKEN } from "./support.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A server started for the browser tests, and how to stop it. */
interface Started {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * Starts one `inlet serve` from source per worker (Playwright runs on Node; the servers run on the
 * project's Bun), so the workers' tests never share a server, and hands their URLs and data dirs
 * to the workers through the environment: worker N (its parallel index) uses `INLET_UI_URL_N`.
 * Returns the teardown.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const started = await Promise.allSettled(Array.from({ length: config.workers }, () => startServer()));
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const teardown = async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await teardown();
    throw (failed as PromiseRejectedResult).reason;
  }
  servers.forEach((server, index) => {
    process.env[`INLET_UI_URL_${index}`] = server.url;
    process.env[`INLET_UI_DATA_DIR_${index}`] = server.dataDir;
  });
  return teardown;
}

async function startServer(): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-ui-"));
  const bun = join(ROOT, "node_modules", ".bin", "bun");
  const child = spawn(bun, ["run", "src/main.ts", "serve", "--port", "0", "--data-dir", dataDir, "--plugins-dir", join(ROOT, "test", "ui", "plugins")], {
    cwd: ROOT,
    env: { ...process.env, INLET_ADMIN_TOKEN: ADMIN_TOKEN, INLET_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
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
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  // Keep draining so the server never blocks on a full pipe.
  child.stdout.removeAllListeners("data").on("data", () => {});
  child.stderr.removeAllListeners("data").on("data", (chunk: Buffer) => process.env.INLET_UI_DEBUG && process.stderr.write(chunk));
  child.removeAllListeners("exit");
  return { url, dataDir, stop };
}
