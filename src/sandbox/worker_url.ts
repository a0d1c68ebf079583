/**
 * The URL to start a `Worker` with, for a worker module that sits beside the module asking
 * (`callerUrl`, its `import.meta.url`). In `dist/inlet` every module's `import.meta.url` is the
 * executable's own (`file:///$bunfs/…`), and each worker is embedded (a build entry point) at its
 * path from `src/`, so there `fromSrc` is what finds it.
 *
 * @example
 * ```ts
 * // in src/checks/pool.ts, for src/checks/worker.ts
 * new Worker(workerUrl(import.meta.url, "checks/worker.ts"));
 * ```
 */
export function workerUrl(callerUrl: string, fromSrc: string): string {
  if (callerUrl.startsWith("file:///$bunfs/")) return new URL(`./${fromSrc}`, callerUrl).href;
  return new URL(`./${fromSrc.slice(fromSrc.lastIndexOf("/") + 1)}`, callerUrl).href;
}
