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
 * node a bounded number of times.
 *
 * @example
 * ```ts
 * evaluatesInLinearTime(parseFilter('$.type == "invoice.paid" && $.data.amount > 100')); // true
 * evaluatesInLinearTime(parseFilter('$.items[?@.sku == $.wanted]')); // false: `$` inside a filter
 * evaluatesInLinearTime(parseFilter('match($.email, ".*@example\\\\.com")')); // false: a regex
 * ```
 */
export function evaluatesInLinearTime(expr: Filter | Query): boolean {
  return expr.kind === "query" ? queryIsLinear(expr, false) : logicalIsLinear(expr.expr, false);
}

function queryIsLinear(query: Query, inFilter: boolean): boolean {
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
      if (descended || !logicalIsLinear(selector.expr, true)) return false;
    }
  }
  return true;
}

function logicalIsLinear(expr: LogicalExpr, inFilter: boolean): boolean {
  switch (expr.kind) {
    case "and":
    case "or":
      return expr.operands.every((operand) => logicalIsLinear(operand, inFilter));
    case "not":
      return logicalIsLinear(expr.operand, inFilter);
    case "compare":
      return argumentIsLinear(expr.left, inFilter) && argumentIsLinear(expr.right, inFilter);
    case "exists":
      return queryIsLinear(expr.query, inFilter);
    case "test":
      return argumentIsLinear(expr.call, inFilter);
  }
}

function argumentIsLinear(argument: Argument, inFilter: boolean): boolean {
  switch (argument.kind) {
    case "literal":
      return true;
    case "query":
      return queryIsLinear(argument, inFilter);
    case "call":
      return argument.name !== "match" && argument.name !== "search" && argument.args.every((arg) => argumentIsLinear(arg, inFilter));
    default:
      return logicalIsLinear(argument, inFilter);
  }
}
