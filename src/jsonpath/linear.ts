// Whether an expression can be evaluated on the host engine: its cost is linear in the data it
// observes, and it runs no user regex.
import type { Argument, Filter, LogicalExpr, Query } from "./ast.ts";

/**
 * True when evaluating `expr` costs at most (size of the pruned document) × (size of the
 * expression), and it calls neither `match()` nor `search()` (whose patterns are user regexes).
 * Superlinear shapes are those that start a new walk for every node a walk visits: inside a
 * filter selector, a query from the root `$` or a descendant segment `..`; a second `..` after
 * a first; a filter over what a `..` found. Anything else — comparisons, existence tests,
 * wildcards, slices, one `..` without a filter after it, nested filters over `@` — touches each
 * node a bounded number of times. match() and search() count as linear only where `linearPatterns`
 * says their (literal) pattern runs on a linear engine.
 *
 * @example
 * ```ts
 * evaluatesInLinearTime(parseFilter('$.type == "invoice.paid" && $.data.amount > 100')); // true
 * evaluatesInLinearTime(parseFilter('$.items[?@.sku == $.wanted]')); // false: `$` inside a filter
 * evaluatesInLinearTime(parseFilter('match($.email, ".*@example\\\\.com")')); // false: a regex
 * ```
 */
export function evaluatesInLinearTime(expr: Filter | Query, linearPatterns?: LinearPatterns): boolean {
  return expr.kind === "query" ? queryIsLinear(expr, false, linearPatterns) : logicalIsLinear(expr.expr, false, linearPatterns);
}

/**
 * Whether the caller evaluates a match() (`whole`) or search() pattern in time linear in the
 * string, whatever the pattern (a linear engine on the host). A call whose pattern is such a
 * string literal then counts as linear; a pattern read from the document never does.
 */
export type LinearPatterns = (pattern: string, whole: boolean) => boolean;

function queryIsLinear(query: Query, inFilter: boolean, patterns: LinearPatterns | undefined): boolean {
  if (inFilter && query.root === "$") return false;
  let descended = false;
  for (const segment of query.segments) {
    if (segment.descendant) {
      // A second `..` walks again from every node the first one found (`$..*..*`: depth² nodes,
      // and more with each one); inside a filter, `..` walks again for every node filtered.
      if (inFilter || descended) return false;
      descended = true;
    }
    for (const selector of segment.selectors) {
      if (selector.kind !== "filter") continue;
      // A filter over every node `..` found compares whole subtrees (`$..[?@ == @]`): depth × size.
      if (descended || !logicalIsLinear(selector.expr, true, patterns)) return false;
    }
  }
  return true;
}

function logicalIsLinear(expr: LogicalExpr, inFilter: boolean, patterns: LinearPatterns | undefined): boolean {
  switch (expr.kind) {
    case "and":
    case "or":
      return expr.operands.every((operand) => logicalIsLinear(operand, inFilter, patterns));
    case "not":
      return logicalIsLinear(expr.operand, inFilter, patterns);
    case "compare":
      return argumentIsLinear(expr.left, inFilter, patterns) && argumentIsLinear(expr.right, inFilter, patterns);
    case "exists":
      return queryIsLinear(expr.query, inFilter, patterns);
    case "test":
      return argumentIsLinear(expr.call, inFilter, patterns);
  }
}

function argumentIsLinear(argument: Argument, inFilter: boolean, patterns: LinearPatterns | undefined): boolean {
  switch (argument.kind) {
    case "literal":
      return true;
    case "query":
      return queryIsLinear(argument, inFilter, patterns);
    case "call":
      if ((argument.name === "match" || argument.name === "search") && !patternIsLinear(argument.args[1], argument.name === "match", patterns)) return false;
      return argument.args.every((arg) => argumentIsLinear(arg, inFilter, patterns));
    default:
      return logicalIsLinear(argument, inFilter, patterns);
  }
}

function patternIsLinear(pattern: Argument, whole: boolean, patterns: LinearPatterns | undefined): boolean {
  return patterns !== undefined && pattern.kind === "literal" && typeof pattern.value === "string" && patterns(pattern.value, whole);
}
