import { bundleGuest } from "../sandbox/bundle_guest.ts" with { type: "macro" };
import { defineGuest, sandbox as sharedSandbox, SandboxMemory, SandboxTimeout, type Sandbox } from "../sandbox/index.ts";

/** See docs/processing-order.md#redaction. */
export const MAX_PATTERNS = 50;
export const MAX_PATTERN_LENGTH = 200;

export const redactGuest = defineGuest("inletRedact", bundleGuest("src/redact/guest.ts"));

/** One invalid pattern, by its index in the list. */
export interface PatternProblem {
  index: number;
  message: string;
}

/** The patterns of a redaction do not validate; `problems` says which and why. */
export class RedactionPatternError extends Error {
  override name = "RedactionPatternError";
  readonly code = "invalid_pattern";
  constructor(readonly problems: PatternProblem[]) {
    super(problems.map((p) => `pattern ${p.index + 1}: ${p.message}`).join("; "));
  }
}

/**
 * Checks redaction patterns: at most 50, each a non-empty string of at most 200 characters
 * that compiles as a JavaScript RegExp with the `i` flag — compiled by QuickJS, the engine that
 * will run it. Returns one problem per bad pattern (empty when all are fine).
 *
 * @example
 * ```ts
 * checkPatterns(["^email$", "card(", ""]);
 * // [{ index: 1, message: 'pattern "card(" is not a valid regular expression: expecting \')\'' },
 * //  { index: 2, message: "pattern is empty (it would match every field name)" }]
 * ```
 */
export function checkPatterns(patterns: readonly unknown[], sandbox: Sandbox = sharedSandbox): PatternProblem[] {
  const problems: PatternProblem[] = [];
  patterns.forEach((pattern, index) => {
    if (index === MAX_PATTERNS) problems.push({ index, message: `too many patterns: at most ${MAX_PATTERNS} are allowed, got ${patterns.length}` });
    if (index >= MAX_PATTERNS) return;
    const message = checkOne(pattern, sandbox);
    if (message) problems.push({ index, message });
  });
  return problems;
}

function checkOne(pattern: unknown, sandbox: Sandbox): string | null {
  if (typeof pattern !== "string") return `pattern must be a string, got ${pattern === null ? "null" : typeof pattern}`;
  if (pattern.length === 0) return "pattern is empty (it would match every field name)";
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed (${quote(pattern)})`;
  }
  let reason: string;
  try {
    reason = sandbox.call(redactGuest, "check", [JSON.stringify(pattern)]);
  } catch (error) {
    // The pattern's own fault; other sandbox failures are the server's, and propagate.
    if (error instanceof SandboxTimeout || error instanceof SandboxMemory)
      return `pattern ${quote(pattern)} could not be compiled within the sandbox's limits (${error.message})`;
    throw error;
  }
  return reason ? `pattern ${quote(pattern)} is not a valid regular expression: ${reason}` : null;
}

function quote(pattern: string): string {
  return JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern);
}
