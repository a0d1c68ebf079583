/**
 * How the server's run slots are shared between destinations (README "Destinations"): each
 * destination's queue is its own, and a claim takes runs from every destination with runs waiting
 * in turn — one from each, then another from each — so a destination with a long backlog (or a
 * target that hangs) never takes every slot while another waits. Live runs are taken before
 * replayed ones, across all destinations, as before.
 */

/** A destination's queue: (trigger, destination) and, per claim, its next startable runs. */
export interface DestinationQueue<R> {
  triggerId: string;
  destination: string;
  /** Oldest first (live lane first), already bounded by what the destination may still start. */
  runs: R[];
}

/** How many of a destination's runs may run at once; null: no limit of its own. */
export type DestinationLimit = (triggerId: string, destination: string) => number | null;

/** How many more runs `destination` may start now: its limit less what it has running (never below 0). */
export function roomOf(limitOf: DestinationLimit | undefined, triggerId: string, destination: string, running: number): number {
  const limit = limitOf?.(triggerId, destination) ?? null;
  return limit === null ? Number.POSITIVE_INFINITY : Math.max(0, limit - running);
}

/**
 * Up to `limit` runs taken in turn from `queues` (each queue's order kept): live runs (lane 0)
 * first, one per queue per round, starting at queue `start % queues.length` so that no queue is
 * always first; then replayed runs the same way.
 */
export function takeInTurn<R extends { lane: number }>(queues: Array<DestinationQueue<R>>, limit: number, start: number): R[] {
  const taken: R[] = [];
  if (queues.length === 0 || limit <= 0) return taken;
  const first = ((start % queues.length) + queues.length) % queues.length;
  const order = [...queues.slice(first), ...queues.slice(0, first)];
  for (const lane of [0, 1]) {
    const cursors = order.map((q) => q.runs.filter((r) => (lane === 0 ? r.lane === 0 : r.lane !== 0)));
    for (let round = 0; taken.length < limit; round++) {
      let any = false;
      for (const runs of cursors) {
        if (round >= runs.length) continue;
        any = true;
        taken.push(runs[round]);
        if (taken.length === limit) return taken;
      }
      if (!any) break;
    }
  }
  return taken;
}
