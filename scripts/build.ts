/**
 * `npm run build`: compiles `src/main.ts` with the built-in plugins, the sandbox's WebAssembly
 * and the web panel into one executable, `dist/inlet`.
 */
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

const outfile = process.argv[2] ?? "dist/inlet";
mkdirSync("dist", { recursive: true });
const started = performance.now();
// (Bun's HTTP parser limit on headers is raised at start, in src/http/edge.ts: no argv needed.)
// The sandbox workers (src/checks/worker.ts) and the XML parser thread (src/ingest/xml_worker.ts)
// are further entry points: Bun embeds them beside main.
const proc = Bun.spawnSync(
  [process.execPath, "build", "--compile", "--minify", "--sourcemap", "src/main.ts", "src/checks/worker.ts", "src/ingest/xml_worker.ts", "--outfile", outfile],
  {
    stdout: "inherit",
    stderr: "inherit",
  },
);
if (proc.exitCode !== 0) {
  console.error(`build failed (exit ${proc.exitCode})`);
  process.exit(proc.exitCode ?? 1);
}
// --sourcemap embeds the (compressed) map in the binary, so stack traces name src/ files and lines;
// Bun also writes it beside the binary, for each entry point: those copies are not needed.
for (const map of [`${outfile}.map`, join(dirname(outfile), "worker.js.map"), join(dirname(outfile), "xml_worker.js.map")]) rmSync(map, { force: true });
console.log(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
