// The part of a document an expression can observe, so the host can hand the sandbox a small
// projection instead of the whole body. A singular query keeps exactly the value it selects
// (with the containers above it); any other query keeps the whole subtree at its longest
// singular prefix. Kept array elements stay at their indices (the gaps are null), and an array
// addressed with a negative index keeps its full length, so results and paths do not change.
import type { Argument, Filter, LogicalExpr, Query } from "./ast.ts";
import { ExactNumber } from "../json/exact_number.ts";

interface Keep {
  whole: boolean;
  fullLength: boolean;
  children: Map<string | number, Keep>;
}

function newKeep(): Keep {
  return { whole: false, fullLength: false, children: new Map() };
}

/** A JSON object: not an array, nor an ExactNumber (a number, kept whole). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof ExactNumber);
}

/**
 * The minimal projection of `document` on which `expr` evaluates exactly as on `document`.
 * Kept subtrees are shared with `document`, not copied: do not mutate either afterwards.
 */
export function prune(expr: Query | Filter, document: unknown): unknown {
  const keep = newKeep();
  if (expr.kind === "query") markQuery(expr, keep, document, true);
  else markLogical(expr.expr, keep, document, true);
  return build(document, keep);
}

/** `atRoot`: `@` denotes the document root (a standalone filter), not a filter's current node. */
function markLogical(expr: LogicalExpr, keep: Keep, document: unknown, atRoot: boolean): void {
  switch (expr.kind) {
    case "and":
    case "or":
      for (const operand of expr.operands) markLogical(operand, keep, document, atRoot);
      return;
    case "not":
      markLogical(expr.operand, keep, document, atRoot);
      return;
    case "compare":
      markArgument(expr.left, keep, document, atRoot);
      markArgument(expr.right, keep, document, atRoot);
      return;
    case "exists":
      markQuery(expr.query, keep, document, atRoot);
      return;
    case "test":
      markArgument(expr.call, keep, document, atRoot);
      return;
  }
}

function markArgument(argument: Argument, keep: Keep, document: unknown, atRoot: boolean): void {
  if (argument.kind === "literal") return;
  if (argument.kind === "query") markQuery(argument, keep, document, atRoot);
  else if (argument.kind === "call") {
    for (const arg of argument.args) markArgument(arg, keep, document, atRoot);
  } else markLogical(argument, keep, document, atRoot);
}

function markQuery(query: Query, keep: Keep, document: unknown, atRoot: boolean): void {
  // `@` inside a filter selector ranges over a subtree its enclosing query keeps whole; only
  // the absolute queries nested in filters need marking of their own.
  for (const segment of query.segments) {
    for (const selector of segment.selectors) {
      if (selector.kind === "filter") markLogical(selector.expr, keep, document, false);
    }
  }
  if (query.root === "$" || atRoot) markPath(query, keep, document);
}

function markPath(query: Query, keep: Keep, document: unknown): void {
  // Resolve first, so a path that leads nowhere leaves no empty containers behind.
  const keys: (string | number)[] = [];
  const negative: boolean[] = [];
  let value = document;
  for (const segment of query.segments) {
    const selector = segment.selectors[0];
    if (segment.descendant || segment.selectors.length !== 1 || (selector.kind !== "name" && selector.kind !== "index")) {
      break;
    }
    if (selector.kind === "name") {
      if (!isObject(value) || !Object.hasOwn(value, selector.name)) return;
      keys.push(selector.name);
      value = value[selector.name];
    } else {
      if (!Array.isArray(value)) return;
      const at = selector.index < 0 ? value.length + selector.index : selector.index;
      if (at < 0 || at >= value.length) return;
      keys.push(at);
      value = value[at];
    }
    negative.push(selector.kind === "index" && selector.index < 0);
  }
  let node = keep;
  for (let i = 0; i < keys.length && !node.whole; i++) {
    if (negative[i]) node.fullLength = true;
    let child = node.children.get(keys[i]);
    if (child === undefined) {
      child = newKeep();
      node.children.set(keys[i], child);
    }
    node = child;
  }
  node.whole = true;
  node.children.clear();
}

function build(value: unknown, keep: Keep): unknown {
  if (keep.whole) return value;
  if (Array.isArray(value)) {
    let length = keep.fullLength ? value.length : 0;
    for (const index of keep.children.keys()) length = Math.max(length, (index as number) + 1);
    const out: unknown[] = new Array(length).fill(null);
    for (const [index, child] of keep.children) out[index as number] = build(value[index as number], child);
    return out;
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [name, child] of keep.children) {
      const kept = build(value[name as string], child);
      // A plain assignment to "__proto__" would set the prototype instead of a property.
      if (name === "__proto__") {
        Object.defineProperty(out, name, { value: kept, enumerable: true, writable: true, configurable: true });
      } else out[name as string] = kept;
    }
    return out;
  }
  return value;
}
