import { exceedsDepth, MAX_NESTING_DEPTH } from "../sandbox/index.ts";
import { checkFilter, checkQuery, compileFilter, compileKeyQuery, runFilter, runKeyQuery } from "../filter/index.ts";
import { checkPatterns, compileRedaction, redact } from "../redact/index.ts";
import { ValidationError } from "../triggers/validation_error.ts";

/** `POST /api/check`: validates and evaluates an expression through the live code paths. */
export type ExpressionCheck = (input: unknown) => { ok: true; result?: unknown } | { ok: false; error: string };

const KINDS = ["jsonpath", "filter", "regex"] as const;

/** Redaction patterns from the `regex` kind's text: one per line, blank lines ignored. */
function patternLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line !== "");
}

/**
 * `POST /api/check`: validates an expression and, with a sample, evaluates it through the very
 * code paths live requests use (sandbox included).
 */
export const checkExpression: ExpressionCheck = (input) => {
  const body = input as { kind?: unknown; expression?: unknown; sample?: unknown } | null;
  const details = [];
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new ValidationError([{ path: "", message: "the body must be a JSON object {kind, expression, sample?}" }]);
  if (!KINDS.includes(body.kind as (typeof KINDS)[number])) details.push({ path: "/kind", message: `must be one of ${KINDS.map((k) => `"${k}"`).join(", ")}` });
  if (typeof body.expression !== "string") details.push({ path: "/expression", message: "must be a string" });
  for (const key of Object.keys(body)) if (!["kind", "expression", "sample"].includes(key)) details.push({ path: `/${key}`, message: "is not a known field" });
  if (details.length) throw new ValidationError(details);
  const expression = body.expression as string;
  const hasSample = Object.hasOwn(body, "sample");
  if (hasSample && exceedsDepth(body.sample, MAX_NESTING_DEPTH)) return { ok: false, error: `the sample is nested deeper than ${MAX_NESTING_DEPTH} levels` };
  try {
    switch (body.kind) {
      case "jsonpath": {
        const problem = checkQuery(expression);
        if (problem) return { ok: false, error: problem };
        return hasSample ? { ok: true, result: runKeyQuery(compileKeyQuery(expression), body.sample) } : { ok: true };
      }
      case "filter": {
        const problem = checkFilter(expression);
        if (problem) return { ok: false, error: problem };
        return hasSample ? { ok: true, result: runFilter(compileFilter(expression), body.sample) } : { ok: true };
      }
      default: {
        const patterns = patternLines(expression);
        if (patterns.length === 0) return { ok: false, error: "no pattern: write one regular expression per line" };
        const problems = checkPatterns(patterns);
        if (problems.length) return { ok: false, error: problems.map((p) => `line ${p.index + 1}: ${p.message}`).join("; ") };
        return hasSample ? { ok: true, result: redact(compileRedaction(patterns), body.sample) } : { ok: true };
      }
    }
  } catch (error) {
    return { ok: false, error: `evaluation failed: ${(error as Error).message}` };
  }
};
