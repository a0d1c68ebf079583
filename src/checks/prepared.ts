import { destinationsOf } from "../records/destination.ts";
import type { TriggerConfig } from "../records/trigger.ts";

/** What a trigger's checks are compiled from: the settings only, never its secrets. */
export type CheckSettings = Pick<TriggerConfig, "filter" | "redaction" | "dedup" | "workflow" | "destinations" | "schema">;

/** The checks a trigger can have. */
export type CheckOp = "passes" | "redact" | "classify" | "select" | "schema" | "orderingKey" | "route";

/** Which checks a trigger's settings call for. */
export function checkOps(s: CheckSettings): CheckOp[] {
  const ops: CheckOp[] = [];
  if (s.filter.enabled && s.filter.expression) ops.push("passes");
  if (s.redaction.enabled && s.redaction.patterns && s.redaction.patterns.length > 0) ops.push("redact");
  if (s.dedup.strategy === "expression" && s.dedup.expression) ops.push("select");
  if (s.schema?.enabled && s.schema.document !== undefined) ops.push("schema");
  const destinations = destinationsOf(s);
  if (destinations.some((d) => "orderingKey" in d.workflow && d.workflow.orderingKey)) ops.push("orderingKey");
  if (destinations.some((d) => d.filter)) ops.push("route");
  return ops;
}

/**
 * A trigger's user-authored checks, compiled once and reused for every request. User logic
 * evaluates in the sandbox (see `compileChecks` for what may run outside it); each function
 * throws a sandbox error when it cannot finish (deadline, memory): the pipeline then answers 500
 * and never lets an unfiltered or unredacted body through.
 */
export interface PreparedChecks {
  /** True when the run should start (Include/Exclude already applied). */
  passes?(body: unknown): boolean | Promise<boolean>;
  /** A copy of the body with matching fields' values replaced by "[REDACTED]". */
  redact?(body: unknown): unknown | Promise<unknown>;
  /** The values the expression dedup query selects. */
  select?(body: unknown): unknown[] | Promise<unknown[]>;
  /** The body's problems under the trigger's JSON Schema (at most 20; none when it conforms). */
  schema?(body: unknown): Promise<Array<{ path: string; message: string }>>;
  /**
   * One "1"/"0" per field name: whether a redaction pattern matches it (present with `redact`
   * where the patterns are compiled: what a sandbox worker answers for the request thread).
   */
  classify?(names: string[]): string | Promise<string>;
  /**
   * The values each destination's `workflow.orderingKey` selects on the redacted body (README
   * "Ordering per key"), by destination name; only destinations that have one.
   */
  orderingKey?(body: unknown): Record<string, unknown[]> | Promise<Record<string, unknown[]>>;
  /** The names of the destinations whose filter selects the redacted body, in order (those without a filter always). */
  route?(body: unknown): string[] | Promise<string[]>;
}

/** Compiles a trigger's checks; the pipeline caches the result per trigger version. */
export type ChecksCompiler = (trigger: CheckSettings & { id: string; updatedAt: string }) => PreparedChecks;

/**
 * An error raised while compiling or evaluating user logic (deadline, memory, a stored
 * expression that no longer compiles): answered as 500 "pre-execution check failed".
 */
export function isSandboxFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("sandbox") || code === "invalid_expression" || code === "invalid_pattern");
}

/**
 * The checks could not be evaluated because the server cannot keep up (every sandbox worker busy
 * too long, too many evaluations waiting): answered 503 with `Retry-After`, the sender retries.
 */
export function isOverload(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "overloaded";
}
