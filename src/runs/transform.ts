// A destination's transformation (README "Transformations"): user code that reshapes `$trigger`
// into what one destination receives. It runs like a script workflow — QuickJS in a sandbox
// process of the script pool, off the thread that answers requests, bounded in time and memory.
import { headerNameProblem, headerValueProblem } from "../net/header_field.ts";
import type { ScriptPool } from "./script/pool.ts";

/** Bounds of a transform (and of its source). */
export const TRANSFORM_LIMITS = { minTimeoutMs: 1, maxTimeoutMs: 1000, defaultTimeoutMs: 200, maxSourceChars: 65_536 } as const;

/** What a destination receives instead of `$trigger`. */
export interface Transformed {
  body: unknown;
  headers: Record<string, string>;
}

/** A transform's outcome: what it made, `null` (the run is skipped), or why it failed (`transform: …`). */
export type TransformOutcome = { ok: true; result: Transformed | null } | { ok: false; error: string };

export interface TransformJob {
  source: string;
  trigger: unknown;
  timeoutMs?: number;
  ctx: { runId: string; destination: string; attempt: number };
}

const QUICKJS_LIMITS = { memoryBytes: 32 * 1024 * 1024, stackBytes: 256 * 1024 };

/**
 * Runs `source`'s default export with `($trigger, ctx)` in a sandbox process of `pool` and checks
 * what it returns: `{ body, headers? }` (headers an object of string values) or `null`. Anything
 * else, a throw, or passing its deadline is a failure whose message starts `transform:`.
 *
 * @example
 * ```ts
 * await runTransform(pool, { source: "export default (t) => ({ body: { id: t.body.id } })", trigger, ctx });
 * // { ok: true, result: { body: { id: "evt_1" }, headers: {} } }
 * ```
 */
export async function runTransform(pool: ScriptPool, job: TransformJob, signal: AbortSignal = new AbortController().signal): Promise<TransformOutcome> {
  const reply = await pool.run(
    {
      source: job.source,
      trigger: job.trigger,
      runId: job.ctx.runId,
      context: { destination: job.ctx.destination, attempt: job.ctx.attempt },
      timeoutMs: job.timeoutMs ?? TRANSFORM_LIMITS.defaultTimeoutMs,
      ...QUICKJS_LIMITS,
    },
    signal,
  );
  if (!reply.ok) return { ok: false, error: `transform: ${reply.message}` };
  return transformed(reply.value);
}

/** Headers that frame the request inlet sends: a transform cannot set them. */
const FRAMING = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"]);

/** What a transform returned, checked: `{ body, headers? }` or `null`. */
export function transformed(value: unknown): TransformOutcome {
  if (value === null) return { ok: true, result: null };
  if (value === undefined) return { ok: false, error: "transform: it returned nothing; return { body, headers } or null (to skip this destination)" };
  if (typeof value !== "object" || Array.isArray(value) || !("body" in value)) {
    return { ok: false, error: `transform: it returned ${describe(value)}; return { body, headers } or null (to skip this destination)` };
  }
  const { body, headers = {}, ...rest } = value as { body: unknown; headers?: unknown };
  const extra = Object.keys(rest);
  if (extra.length > 0) return { ok: false, error: `transform: unknown field ${JSON.stringify(extra[0])} in what it returned (only body and headers)` };
  if (headers === null || typeof headers !== "object" || Array.isArray(headers))
    return { ok: false, error: "transform: headers must be an object of header names to string values" };
  for (const [name, v] of Object.entries(headers)) {
    if (typeof v !== "string") return { ok: false, error: `transform: header ${JSON.stringify(name)} must be a string, not ${describe(v)}` };
    // What fetch would refuse fails here, once, as the transform's fault (not as a network error retried).
    const problem = headerNameProblem(name) ?? headerValueProblem(v);
    if (problem) return { ok: false, error: `transform: header ${JSON.stringify(name)} ${problem}` };
    if (FRAMING.has(name.toLowerCase()))
      return { ok: false, error: `transform: header ${JSON.stringify(name)} is set by inlet for the request it sends; leave it out` };
  }
  return { ok: true, result: { body: body ?? null, headers: headers as Record<string, string> } };
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object without body" : `a ${typeof value}`;
}
