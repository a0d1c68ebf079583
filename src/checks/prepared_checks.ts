import type { CheckSettings } from "./check_ops.ts";

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
