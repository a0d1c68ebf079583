import type { Destination } from "../types.ts";

/** The name of the one destination the `workflow` shorthand stands for (README "Destinations"). */
export const DEFAULT_DESTINATION = "default";

/** One destination's group as the editor read it, before the save body is built. */
export interface DestinationDraft {
  name: string;
  /** The Workflow group's workflow (workflow_value.ts). */
  workflow: Record<string, unknown>;
  /** The group's Response mode is Workflow: this destination answers the caller. */
  answers: boolean;
  /** Absent: no filter (a destination's filter is on when present). */
  filter?: { mode: "include" | "exclude"; expression: string };
  /** The transform's source; absent: none. */
  transform?: string;
  rateLimit?: number;
  concurrency?: number;
  /** The destination as saved, for what the panel does not show (breaker, transform timeout, respond). */
  saved?: Destination;
}

/** The destination's `filter`, leaving out `mode` where the saved one did and it is still the default. */
function filterOf(d: DestinationDraft): Destination["filter"] {
  if (!d.filter) return undefined;
  const keepsDefault = d.saved?.filter && d.saved.filter.mode === undefined && d.filter.mode === "include";
  return keepsDefault ? { expression: d.filter.expression } : d.filter;
}

/**
 * `respond`: with several destinations the one whose Response mode is Workflow answers the caller
 * (the API needs exactly one); otherwise, and on the others, what was saved stays — except a
 * `respond: true` another destination has taken over.
 */
function respondOf(d: DestinationDraft, all: DestinationDraft[]): boolean | undefined {
  const answering = all.filter((x) => x.answers);
  if (all.length < 2 || answering.length !== 1) return d.saved?.respond;
  if (d.answers) return true;
  return d.saved?.respond === true ? undefined : d.saved?.respond;
}

function destinationOf(d: DestinationDraft, all: DestinationDraft[]): Destination {
  const out: Record<string, unknown> = { name: d.name, workflow: d.workflow };
  const filter = filterOf(d);
  if (filter) out.filter = filter;
  if (d.transform !== undefined)
    out.transform = { source: d.transform, ...(d.saved?.transform?.timeoutMs === undefined ? {} : { timeoutMs: d.saved.transform.timeoutMs }) };
  if (d.rateLimit !== undefined) out.rateLimit = { perSecond: d.rateLimit };
  if (d.concurrency !== undefined) out.concurrency = d.concurrency;
  if (d.saved?.breaker) out.breaker = d.saved.breaker;
  const respond = respondOf(d, all);
  if (respond !== undefined) out.respond = respond;
  return out as Destination;
}

/**
 * Where the trigger's requests go, as the save body says it: the `workflow` shorthand while there
 * is one destination named `default` with no settings of its own (as every trigger made before
 * destinations), else `destinations` — never both.
 */
export function deliveriesBody(drafts: DestinationDraft[]): { workflow: Destination["workflow"] } | { destinations: Destination[] } {
  const destinations = drafts.map((d) => destinationOf(d, drafts));
  const only = destinations.length === 1 ? destinations[0] : undefined;
  if (only && only.name === DEFAULT_DESTINATION && Object.keys(only).length === 2) return { workflow: only.workflow };
  return { destinations };
}
