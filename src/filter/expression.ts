import {
  evaluateFilter,
  evaluateQuery,
  evaluatesInLinearTime,
  JsonPathSyntaxError,
  parseFilter,
  parseQuery,
  prune,
  type Filter,
  type LinearPatterns,
  type Query,
  type RegexTest,
} from "../jsonpath/index.ts";
import { mayHoldInexactNumbers, parseJsonExactly } from "../json/index.ts";
import { linearRegex } from "../regex/linear_regex.ts";
import { bundleGuest } from "../sandbox/bundle_guest.ts" with { type: "macro" };
import { defineGuest, exceedsDepth, GuestUnit, MAX_NESTING_DEPTH, SandboxError, sandbox as sharedSandbox, type Sandbox } from "../sandbox/index.ts";

/** The JSONPath engine, bundled to run inside QuickJS. */
export const jsonPathGuest = defineGuest("inletJsonPath", bundleGuest("src/filter/guest.ts"));

/** A filter expression or query that does not parse; the message says what and where. */
export class ExpressionError extends Error {
  override name = "ExpressionError";
  readonly code = "invalid_expression";
  constructor(
    message: string,
    /** 0-based offset of the problem in the source. */
    readonly position: number,
  ) {
    super(message);
  }
}

export interface ExpressionOptions {
  /** The sandbox that evaluates it (default: the process-wide one). */
  sandbox?: Sandbox;
}

/** match()/search() patterns that the host's linear engine takes (I-Regexp, within RE2's limits). */
const hostPatterns: LinearPatterns = (pattern, whole) => linearRegex(pattern, whole ? "jsonpath-match" : "jsonpath-search") !== null;

/** match()/search() on the host: the linear engine, never JavaScriptCore's backtracking RegExp. */
const hostRegex: RegexTest = (value, pattern, whole) => linearRegex(pattern, whole ? "jsonpath-match" : "jsonpath-search")?.test(value) ?? false;

/**
 * An expression parsed on the host (validation, pruning plan). One that costs linear time
 * (`evaluatesInLinearTime`), its match()/search() patterns literals that the linear engine takes,
 * evaluates on the host; any other is compiled in QuickJS on first use and evaluates there.
 */
export interface CompiledExpression<Ast> {
  readonly source: string;
  readonly ast: Ast;
  /** Evaluated by the host engine: cost bounded by the pruned body, regexes (if any) on the linear engine. */
  readonly onHost: boolean;
  /** @internal */ readonly unit: GuestUnit;
  /** @internal */ readonly sandbox: Sandbox;
}

/** A filter expression (see CompiledExpression). */
export type CompiledFilter = CompiledExpression<Filter>;

/** An RFC 9535 query whose selected values make an expression dedup key. */
export type CompiledKeyQuery = CompiledExpression<Query>;

/**
 * Parses a filter expression (RFC 9535 `logical-expr`, `$` and `@` bound to the body). Throws
 * an `ExpressionError` with the parser's message ("use ==", "string literals need quotes"…).
 *
 * @example
 * ```ts
 * const filter = compileFilter('$.type == "invoice.paid" && $.data.object.amount > 100');
 * runFilter(filter, { type: "invoice.paid", data: { object: { amount: 250 } } }); // true
 * ```
 */
export function compileFilter(source: string, options: ExpressionOptions = {}): CompiledFilter {
  return compiled(
    source,
    parsed(() => parseFilter(source)),
    "compileFilter",
    options,
  );
}

/**
 * Whether the filter holds for `body` (the parsed request body). Only the projection of the
 * body the expression can observe is evaluated (in QuickJS unless `onHost`). Throws a
 * `SandboxError` when the evaluation cannot finish (deadline, memory, nesting deeper than 256):
 * fail closed.
 */
export function runFilter(compiled: CompiledFilter, body: unknown): boolean {
  if (compiled.onHost) return evaluateFilter(compiled.ast, pruned(compiled.ast, body), hostRegex);
  const document = projection(compiled.ast, body);
  const answer = compiled.sandbox.call(jsonPathGuest, mayHoldInexactNumbers(document) ? "filterExact" : "filter", [compiled.unit, document]);
  return answer === "1";
}

/**
 * Parses an RFC 9535 query for an expression dedup key. Throws an `ExpressionError`.
 *
 * @example
 * ```ts
 * runKeyQuery(compileKeyQuery("$.data.id"), { data: { id: "evt_1" } }); // ["evt_1"]
 * ```
 */
export function compileKeyQuery(source: string, options: ExpressionOptions = {}): CompiledKeyQuery {
  return compiled(
    source,
    parsed(() => parseQuery(source)),
    "compileQuery",
    options,
  );
}

/** The values of the nodes the query selects from `body`, in document order. Throws a `SandboxError` like `runFilter`. */
export function runKeyQuery(compiled: CompiledKeyQuery, body: unknown): unknown[] {
  if (compiled.onHost) return evaluateQuery(compiled.ast, pruned(compiled.ast, body), hostRegex).map((node) => node.value);
  const document = projection(compiled.ast, body);
  const exact = mayHoldInexactNumbers(document);
  const answer = compiled.sandbox.call(jsonPathGuest, exact ? "queryExact" : "query", [compiled.unit, document]);
  return (exact ? parseJsonExactly(answer).value : JSON.parse(answer)) as unknown[];
}

/** `null` when `source` is a valid filter expression, else the message that helps fix it. */
export function checkFilter(source: string): string | null {
  return problem(() => parseFilter(source));
}

/** `null` when `source` is a valid RFC 9535 query, else the message that helps fix it. */
export function checkQuery(source: string): string | null {
  return problem(() => parseQuery(source));
}

/** The part of the body the expression can observe; refused past the nesting bound, wherever it evaluates. */
function pruned(ast: Filter | Query, body: unknown): unknown {
  const observed = prune(ast, body);
  // QuickJS's JSON.parse recurses on the host's native stack (docs/processing-order.md#the-sandbox); the host's evaluator recurses too.
  if (exceedsDepth(observed)) throw new SandboxError("sandbox_too_deep", `body nests deeper than ${MAX_NESTING_DEPTH} levels; expression not evaluated`);
  return observed;
}

/** The pruned body as JSON text (numbers as sent: see `ExactNumber`): what the guest parses. */
function projection(ast: Filter | Query, body: unknown): string {
  return JSON.stringify(pruned(ast, body)) ?? "null";
}

/** A parsed expression, on the host when it can be, else as the guest's `compile` of its source. */
function compiled<Ast extends Filter | Query>(
  source: string,
  ast: Ast,
  compile: "compileFilter" | "compileQuery",
  options: ExpressionOptions,
): CompiledExpression<Ast> {
  return {
    source,
    ast,
    onHost: evaluatesInLinearTime(ast, hostPatterns),
    unit: new GuestUnit(jsonPathGuest, compile, JSON.stringify(source)),
    sandbox: options.sandbox ?? sharedSandbox,
  };
}

function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof JsonPathSyntaxError) throw new ExpressionError(error.message, error.position);
    throw error;
  }
}

function problem(parse: () => unknown): string | null {
  try {
    parse();
    return null;
  } catch (error) {
    if (error instanceof JsonPathSyntaxError) return error.message;
    throw error;
  }
}
