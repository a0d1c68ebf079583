/**
 * Bun macros that run at bundle time (and in the runtime transpiler under `bun run` and
 * `bun test`): the panel's browser code and stylesheet become string literals in the importing
 * module, so the compiled binary carries them with no files beside it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const clientDir = join(import.meta.dir, "client");

/** The browser bundle of `client/main.ts`, minified ESM. */
export function clientScript(): string {
  // Bun.build cannot run inside a macro while the bundler waits on it, so the CLI does the work.
  const build = Bun.spawnSync([process.execPath, "build", join(clientDir, "main.ts"), "--target=browser", "--format=esm", "--minify"], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (build.exitCode !== 0) throw new Error(`the panel's client code did not build:\n${build.stderr.toString()}`);
  return build.stdout.toString();
}

/** The panel's stylesheet. */
export function stylesheet(): string {
  return readFileSync(join(clientDir, "style.css"), "utf8");
}
