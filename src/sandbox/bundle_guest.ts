/**
 * A Bun macro: import it `with { type: "macro" }` and the call is replaced, when the importing
 * file is transpiled (`bun run`, `bun test`, `bun build --compile`), by the bundled script text.
 * So no generated file is committed and the guest can never be stale.
 *
 * `Bun.build` cannot run inside a macro (the bundler would wait for itself), hence the CLI.
 *
 * @example
 * ```ts
 * import { bundleGuest } from "../sandbox/bundle_guest.ts" with { type: "macro" };
 * const source = bundleGuest("src/filter/guest.ts"); // path from the repository root
 * ```
 */
export function bundleGuest(entry: string): string {
  const root = `${import.meta.dir}/../..`;
  const result = Bun.spawnSync(
    // An IIFE leaks nothing but what the entry puts on globalThis. Names stay unminified so
    // guest stack traces remain readable.
    [process.execPath, "build", `${root}/${entry}`, "--target=browser", "--format=iife", "--minify-syntax", "--minify-whitespace"],
    { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
  );
  if (!result.success) throw new Error(`bundling guest ${entry} failed:\n${result.stderr.toString()}`);
  return result.stdout.toString();
}
