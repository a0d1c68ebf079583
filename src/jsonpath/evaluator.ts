// RFC 9535 §2.3–2.6 evaluation. Nodelists are kept as parallel arrays of values and (only when
// the caller wants them) normalized paths, so filters allocate little. `undefined` is Nothing.
import type { Argument, Comparable, Filter, FunctionCall, LogicalExpr, Node, Query, Segment, Selector } from "./ast.ts";
import { compare } from "./comparison.ts";
import { lengthOf, regexTest, singleValue } from "./functions.ts";
import { indexSegment, nameSegment } from "./normalized_path.ts";
import { ExactNumber } from "../json/exact_number.ts";

type JsonObject = Record<string, unknown>;

/** A JSON object: not an array, nor an ExactNumber (a number, which has no members). */
function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof ExactNumber);
}

/** How match() (`whole`) and search() test a string: by default an ECMAScript RegExp (see iregexp.ts). */
export type RegexTest = (value: string, pattern: string, whole: boolean) => boolean;

/** The regex test of the evaluation running now (evaluation is synchronous: one at a time). */
let regexEngine: RegexTest = regexTest;

/** Runs `evaluate` with `engine` answering match() and search(). */
function withRegex<T>(engine: RegexTest | undefined, evaluate: () => T): T {
  if (engine === undefined) return evaluate();
  const previous = regexEngine;
  regexEngine = engine;
  try {
    return evaluate();
  } finally {
    regexEngine = previous;
  }
}

/**
 * The nodes `query` selects from `document`, in RFC 9535 order, with normalized paths; `regex`
 * (optional) answers match() and search().
 */
export function evaluateQuery(query: Query, document: unknown, regex?: RegexTest): Node[] {
  return withRegex(regex, () => nodesOf(query, document));
}

function nodesOf(query: Query, document: unknown): Node[] {
  let values: unknown[] = [document];
  let paths: string[] = ["$"];
  for (const segment of query.segments) {
    const nextValues: unknown[] = [];
    const nextPaths: string[] = [];
    for (let i = 0; i < values.length; i++) {
      applySegment(segment, values[i], paths[i], nextValues, nextPaths, document);
    }
    values = nextValues;
    paths = nextPaths;
  }
  const nodes: Node[] = new Array(values.length);
  for (let i = 0; i < values.length; i++) nodes[i] = { value: values[i], path: paths[i] };
  return nodes;
}

/** Whether a standalone filter holds for `document` (`$` and `@` are both the document). */
export function evaluateFilter(filter: Filter, document: unknown, regex?: RegexTest): boolean {
  return withRegex(regex, () => test(filter.expr, document, document));
}

/** Values only: what a query inside a filter selects. */
function selectValues(query: Query, current: unknown, root: unknown): unknown[] {
  let values: unknown[] = [query.root === "$" ? root : current];
  for (const segment of query.segments) {
    const next: unknown[] = [];
    for (let i = 0; i < values.length; i++) applySegment(segment, values[i], "", next, null, root);
    values = next;
  }
  return values;
}

/** A singular query's value, or Nothing. */
function singularValue(query: Query, current: unknown, root: unknown): unknown {
  let value = query.root === "$" ? root : current;
  const segments = query.segments;
  for (let i = 0; i < segments.length; i++) {
    const selector = segments[i].selectors[0] as { kind: "name"; name: string } | { kind: "index"; index: number };
    if (selector.kind === "name") {
      if (!isObject(value) || !Object.hasOwn(value, selector.name)) return undefined;
      value = value[selector.name];
    } else {
      if (!Array.isArray(value)) return undefined;
      const at = selector.index < 0 ? value.length + selector.index : selector.index;
      if (at < 0 || at >= value.length) return undefined;
      value = value[at];
    }
  }
  return value;
}

function applySegment(segment: Segment, value: unknown, path: string, outValues: unknown[], outPaths: string[] | null, root: unknown): void {
  if (!segment.descendant) {
    applySelectors(segment.selectors, value, path, outValues, outPaths, root);
    return;
  }
  // Pre-order walk (a node before its descendants, arrays in order), without recursion.
  const stack: unknown[] = [value];
  const pathStack: string[] = [path];
  while (stack.length > 0) {
    const v = stack.pop();
    const p = pathStack.pop()!;
    applySelectors(segment.selectors, v, p, outValues, outPaths, root);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]);
        pathStack.push(outPaths === null ? "" : p + indexSegment(i));
      }
    } else if (isObject(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(v[keys[i]]);
        pathStack.push(outPaths === null ? "" : p + nameSegment(keys[i]));
      }
    }
  }
}

function applySelectors(selectors: readonly Selector[], value: unknown, path: string, outValues: unknown[], outPaths: string[] | null, root: unknown): void {
  for (let s = 0; s < selectors.length; s++) {
    const selector = selectors[s];
    if (Array.isArray(value)) {
      if (selector.kind === "name") continue;
      if (selector.kind === "index") {
        const at = selector.index < 0 ? value.length + selector.index : selector.index;
        if (at >= 0 && at < value.length) {
          outValues.push(value[at]);
          if (outPaths !== null) outPaths.push(path + indexSegment(at));
        }
        continue;
      }
      const indices = selector.kind === "slice" ? sliceIndices(selector, value.length) : null;
      const n = indices === null ? value.length : indices.length;
      for (let k = 0; k < n; k++) {
        const at = indices === null ? k : indices[k];
        if (selector.kind === "filter" && !test(selector.expr, value[at], root)) continue;
        outValues.push(value[at]);
        if (outPaths !== null) outPaths.push(path + indexSegment(at));
      }
    } else if (isObject(value)) {
      if (selector.kind === "name") {
        if (Object.hasOwn(value, selector.name)) {
          outValues.push(value[selector.name]);
          if (outPaths !== null) outPaths.push(path + nameSegment(selector.name));
        }
        continue;
      }
      if (selector.kind !== "wildcard" && selector.kind !== "filter") continue;
      for (const key of Object.keys(value)) {
        if (selector.kind === "filter" && !test(selector.expr, value[key], root)) continue;
        outValues.push(value[key]);
        if (outPaths !== null) outPaths.push(path + nameSegment(key));
      }
    }
  }
}

/** RFC 9535 §2.3.4.2.2 slice indices, in selection order. */
function sliceIndices(slice: { start: number | null; end: number | null; step: number | null }, length: number): number[] {
  const step = slice.step ?? 1;
  const indices: number[] = [];
  if (step === 0) return indices;
  const normalize = (i: number) => (i >= 0 ? i : length + i);
  if (step > 0) {
    const lower = Math.min(Math.max(normalize(slice.start ?? 0), 0), length);
    const upper = Math.min(Math.max(normalize(slice.end ?? length), 0), length);
    for (let i = lower; i < upper; i += step) indices.push(i);
  } else {
    const upper = Math.min(Math.max(normalize(slice.start ?? length - 1), -1), length - 1);
    const lower = Math.min(Math.max(slice.end === null ? -1 : normalize(slice.end), -1), length - 1);
    for (let i = upper; lower < i; i += step) indices.push(i);
  }
  return indices;
}

function test(expr: LogicalExpr, current: unknown, root: unknown): boolean {
  switch (expr.kind) {
    case "compare":
      return compare(expr.op, operandValue(expr.left, current, root), operandValue(expr.right, current, root));
    case "and":
      for (let i = 0; i < expr.operands.length; i++) if (!test(expr.operands[i], current, root)) return false;
      return true;
    case "or":
      for (let i = 0; i < expr.operands.length; i++) if (test(expr.operands[i], current, root)) return true;
      return false;
    case "not":
      return !test(expr.operand, current, root);
    case "exists":
      return expr.query.singular ? singularValue(expr.query, current, root) !== undefined : selectValues(expr.query, current, root).length > 0;
    case "test":
      return callTest(expr.call, current, root);
  }
}

function operandValue(operand: Comparable | Argument, current: unknown, root: unknown): unknown {
  switch (operand.kind) {
    case "literal":
      return operand.value;
    case "query":
      return singularValue(operand, current, root);
    case "call":
      return callValue(operand, current, root);
    default:
      return test(operand, current, root);
  }
}

/** A NodesType argument: the values of the nodelist. */
function nodesArgument(argument: Argument, current: unknown, root: unknown): unknown[] {
  return argument.kind === "query" ? selectValues(argument, current, root) : [];
}

function callValue(call: FunctionCall, current: unknown, root: unknown): unknown {
  const args = call.args;
  switch (call.name) {
    case "length":
      return lengthOf(operandValue(args[0], current, root));
    case "count":
      return nodesArgument(args[0], current, root).length;
    case "value":
      return singleValue(nodesArgument(args[0], current, root));
    default:
      return callTest(call, current, root);
  }
}

function callTest(call: FunctionCall, current: unknown, root: unknown): boolean {
  if (call.name !== "match" && call.name !== "search") return false;
  const value = operandValue(call.args[0], current, root);
  const pattern = operandValue(call.args[1], current, root);
  if (typeof value !== "string" || typeof pattern !== "string") return false;
  return regexEngine(value, pattern, call.name === "match");
}
