/**
 * `npm run build`: compiles `src/main.ts` with the built-in plugins, the sandbox's WebAssembly
 * and the web panel into one executable, `dist/inlet`.
 */
import { mkdirSync } from "node:fs";

const outfile = process.argv[2] ?? "dist/inlet";
mkdirSync("dist", { recursive: true });
const started = performance.now();
const proc = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", "--sourcemap", "src/main.ts", "--outfile", outfile], {
  stdout: "inherit",
  stderr: "inherit",
});
if (proc.exitCode !== 0) {
  console.error(`build failed (exit ${proc.exitCode})`);
  process.exit(proc.exitCode ?? 1);
}
console.log(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
