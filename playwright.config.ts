/**
 * Browser tests of the web panel (test/ui/*.pw.ts). Chromium is Debian's (`/usr/bin/chromium`,
 * installed by .ci/run); `playwright install` is never needed. The global setup starts one inlet
 * per worker from source, each on a free port with a throwaway data dir and a known admin token.
 */
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "test/ui",
  // `*.pw.ts`, not `*.spec.ts`: bun test would pick spec files up as its own.
  testMatch: "**/*.pw.ts",
  globalSetup: "./test/ui/global_setup.ts",
  // Two workers, each with its own server (test files are spread over them; a file's tests run
  // in order on one). Most of a browser test is waiting, so two fit on CI's two cores.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? "line" : "list",
  outputDir: "test-results",
  use: {
    // This worker's server (the config is loaded again in each worker, after its index is set).
    baseURL: process.env[`INLET_UI_URL_${process.env.TEST_PARALLEL_INDEX ?? "0"}`],
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.INLET_CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
