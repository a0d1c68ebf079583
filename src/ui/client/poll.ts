/**
 * Calls `tick` now and then every `ms` after each call settles, skipping while the tab is hidden
 * or `paused()` says so. Returns the function that stops it.
 */
export function poll(tick: () => Promise<void>, ms: number, paused: () => boolean = () => false): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loop = async () => {
    if (stopped) return;
    if (!document.hidden && !paused()) {
      try {
        await tick();
      } catch {
        // A failed refresh is retried on the next tick; the view shows what it last had.
      }
    }
    if (!stopped) timer = setTimeout(loop, ms);
  };
  void loop();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
