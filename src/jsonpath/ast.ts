// The parsed form of RFC 9535 queries and filter expressions. Plain data (no functions; the one
// class is ExactNumber, a number literal kept as its text, which serialises as that number) so a
// parsed expression can be inspected, serialised or rebuilt anywhere.
import type { ExactNumber } from "../json/exact_number.ts";

export type Selector =
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "wildcard" }
  | { readonly kind: "index"; readonly index: number }
  | {
      readonly kind: "slice";
      readonly start: number | null;
      readonly end: number | null;
      readonly step: number | null;
    }
  | { readonly kind: "filter"; readonly expr: LogicalExpr };

export interface Segment {
  /** `..` (descendant segment) rather than a child segment. */
  readonly descendant: boolean;
  readonly selectors: readonly Selector[];
}

export interface Query {
  readonly kind: "query";
  /** `$` (the document root) or `@` (the current node of a filter). */
  readonly root: "$" | "@";
  readonly segments: readonly Segment[];
  /** RFC 9535 §2.3.5.1 singular query: only one-name or one-index child segments. */
  readonly singular: boolean;
}

/** A number literal a double cannot hold (`9007199254740993`) is an ExactNumber, compared exactly. */
export type LiteralValue = string | number | ExactNumber | boolean | null;

export interface Literal {
  readonly kind: "literal";
  readonly value: LiteralValue;
}

export type FunctionName = "length" | "count" | "match" | "search" | "value";

/** Arguments are already checked against the parameter types (RFC 9535 §2.4.3). */
export interface FunctionCall {
  readonly kind: "call";
  readonly name: FunctionName;
  readonly args: readonly Argument[];
}

/** ValueType parameters get Literal, singular Query or a ValueType call; NodesType ones a Query
 * or NodesType call; LogicalType ones a LogicalExpr. */
export type Argument = Literal | Query | FunctionCall | LogicalExpr;

/** Literal, singular Query, or a call whose result is ValueType. */
export type Comparable = Literal | Query | FunctionCall;

export type ComparisonOp = "==" | "!=" | "<" | "<=" | ">" | ">=";

export type LogicalExpr =
  | { readonly kind: "or"; readonly operands: readonly LogicalExpr[] }
  | { readonly kind: "and"; readonly operands: readonly LogicalExpr[] }
  | { readonly kind: "not"; readonly operand: LogicalExpr }
  | {
      readonly kind: "compare";
      readonly op: ComparisonOp;
      readonly left: Comparable;
      readonly right: Comparable;
    }
  /** Existence test: true when the query selects at least one node. */
  | { readonly kind: "exists"; readonly query: Query }
  /** A call whose result is LogicalType, or NodesType (true when non-empty). */
  | { readonly kind: "test"; readonly call: FunctionCall };

/** A standalone logical-expr, with `$` and `@` both bound to the document root. */
export interface Filter {
  readonly kind: "filter";
  readonly expr: LogicalExpr;
}

/** One node of a result nodelist: its value and its RFC 9535 §2.7 normalized path. */
export interface Node {
  readonly value: unknown;
  readonly path: string;
}
