// RFC 9535 JSONPath: parse once, evaluate many times. Pure ES2023 with no imports from outside
// this folder, so the same code runs on the host and inside the QuickJS sandbox.
export type {
  Argument,
  Comparable,
  ComparisonOp,
  Filter,
  FunctionCall,
  FunctionName,
  Literal,
  LiteralValue,
  LogicalExpr,
  Node,
  Query,
  Segment,
  Selector,
} from "./ast.ts";
export { JsonPathSyntaxError } from "./errors.ts";
export { evaluateFilter, evaluateQuery, type RegexTest } from "./evaluator.ts";
export { MAX_NESTING } from "./parse_context.ts";
export { parseFilter, parseQuery } from "./parser.ts";
export { prune } from "./prune.ts";
export { evaluatesInLinearTime, type LinearPatterns } from "./linear.ts";

import type { Query } from "./ast.ts";

/** RFC 9535 §2.3.5.1: the query selects at most one node whatever the document. */
export function isSingular(query: Query): boolean {
  return query.singular;
}
