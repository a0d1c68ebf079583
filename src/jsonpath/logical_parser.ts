// RFC 9535 logical-expr (§2.3.5.1) with the well-typedness rules of §2.4.3.
import type { Argument, Comparable, ComparisonOp, FunctionCall, Literal, LogicalExpr, Query } from "./ast.ts";
import { JsonPathSyntaxError } from "./errors.ts";
import { jsonNumber } from "../json/decimal.ts";
import { FUNCTIONS, isFunctionName, type ParamType } from "./functions.ts";
import { filterSuggestion } from "./hints.ts";
import { enterNesting, leaveNesting, type ParseContext, sourceOf, startOf, unexpected } from "./parse_context.ts";
import { parseQueryTail } from "./query_parser.ts";

/** An operand not yet placed: a literal, query or call, or an already logical expression. */
type Expr = Literal | Query | FunctionCall | LogicalExpr;

const OPERAND_EXPECTED = "a literal, a query (starting with $ or @) or a function call";
const TYPE_NAMES: Record<ParamType, string> = { value: "a value", logical: "true or false", nodes: "a nodelist" };

function isComparisonOp(kind: string): kind is ComparisonOp {
  return kind === "==" || kind === "!=" || kind === "<" || kind === "<=" || kind === ">" || kind === ">=";
}

export function parseLogicalExpr(ctx: ParseContext): LogicalExpr {
  return toLogical(ctx, parseOr(ctx), ctx.lexer.token.start);
}

function parseOr(ctx: ParseContext): Expr {
  const first = parseAnd(ctx);
  if (ctx.lexer.peek().kind !== "||") return first;
  const operands = [toLogical(ctx, first, 0)];
  while (ctx.lexer.peek().kind === "||") {
    ctx.lexer.advance();
    operands.push(toLogical(ctx, parseAnd(ctx), 0));
  }
  return { kind: "or", operands };
}

function parseAnd(ctx: ParseContext): Expr {
  const first = parseBasic(ctx);
  if (ctx.lexer.peek().kind !== "&&") return first;
  const operands = [toLogical(ctx, first, 0)];
  while (ctx.lexer.peek().kind === "&&") {
    ctx.lexer.advance();
    operands.push(toLogical(ctx, parseBasic(ctx), 0));
  }
  return { kind: "and", operands };
}

/** basic-expr = paren-expr / comparison-expr / test-expr; a lone operand is returned as is. */
function parseBasic(ctx: ParseContext): Expr {
  const lexer = ctx.lexer;
  const token = lexer.token;
  if (token.kind === "!") {
    lexer.advance();
    if (lexer.peek().kind === "(") return { kind: "not", operand: parseParen(ctx) };
    const operand = parseOperand(ctx);
    if (isComparisonOp(lexer.peek().kind)) {
      throw new JsonPathSyntaxError(
        `expected '&&', '||' or the end of the negated test, found '${lexer.peek().kind}'`,
        lexer.token.start,
        `'!' applies to the operand alone; to negate a comparison write !(${sourceOf(ctx, operand)} ${lexer.peek().kind} …)`,
      );
    }
    return { kind: "not", operand: toLogical(ctx, operand, token.start) };
  }
  if (token.kind === "(") {
    const inner = parseParen(ctx);
    if (isComparisonOp(lexer.peek().kind)) {
      unexpected(ctx, "'&&', '||' or ')' after a parenthesized expression", "a parenthesized expression is true or false and cannot be compared");
    }
    return inner;
  }
  const left = parseOperand(ctx);
  const opToken = lexer.token;
  if (!isComparisonOp(opToken.kind)) return left;
  lexer.advance();
  const right = parseOperand(ctx);
  if (isComparisonOp(lexer.peek().kind)) {
    unexpected(ctx, "'&&', '||' or the end of the comparison", "comparisons cannot be chained; join them with && or ||");
  }
  return {
    kind: "compare",
    op: opToken.kind,
    left: checkComparable(ctx, left, opToken.kind, right, true),
    right: checkComparable(ctx, right, opToken.kind, left, false),
  };
}

function parseParen(ctx: ParseContext): LogicalExpr {
  const open = ctx.lexer.token;
  ctx.lexer.advance();
  enterNesting(ctx, open.start);
  const inner = parseLogicalExpr(ctx);
  leaveNesting(ctx);
  if (ctx.lexer.peek().kind !== ")") unexpected(ctx, `'&&', '||' or ')' to close the '(' at position ${open.start}`);
  ctx.lexer.advance();
  return inner;
}

/** literal / filter-query / function-expr */
function parseOperand(ctx: ParseContext): Literal | Query | FunctionCall {
  const lexer = ctx.lexer;
  const token = lexer.token;
  let operand: Literal | Query | FunctionCall;
  switch (token.kind) {
    case "$":
    case "@":
      lexer.advance();
      return parseQueryTail(ctx, token.kind, token.start);
    case "number":
      operand = { kind: "literal", value: jsonNumber(token.text) };
      lexer.advance();
      break;
    case "string":
      operand = { kind: "literal", value: token.text };
      lexer.advance();
      break;
    case "name": {
      const word = token.text;
      if (word === "true" || word === "false" || word === "null") {
        operand = { kind: "literal", value: word === "null" ? null : word === "true" };
        lexer.advance();
        break;
      }
      if (ctx.source[token.end] === "(") return parseCall(ctx);
      if (isFunctionName(word) && /^[ \t\n\r]+\(/.test(ctx.source.slice(token.end, token.end + 64))) {
        throw new JsonPathSyntaxError(`expected '(' right after function name ${word}, found whitespace`, token.end);
      }
      return unexpected(ctx, OPERAND_EXPECTED);
    }
    default:
      return unexpected(ctx, OPERAND_EXPECTED);
  }
  ctx.spans.set(operand, { start: token.start, end: lexer.previousEnd });
  return operand;
}

function parseCall(ctx: ParseContext): FunctionCall {
  const lexer = ctx.lexer;
  const nameToken = lexer.token;
  const name = nameToken.text;
  if (!isFunctionName(name)) {
    unexpected(ctx, `one of the functions ${Object.keys(FUNCTIONS).join(", ")}`, `unknown function ${name}()`);
  }
  const signature = FUNCTIONS[name];
  lexer.advance();
  lexer.advance();
  enterNesting(ctx, nameToken.start);
  const raw: { expr: Expr; start: number }[] = [];
  if (lexer.peek().kind !== ")") {
    for (;;) {
      const start = lexer.token.start;
      raw.push({ expr: parseOr(ctx), start });
      if (lexer.peek().kind === ")") break;
      if (lexer.peek().kind !== ",") unexpected(ctx, `',' or ')' in the arguments of ${name}()`);
      lexer.advance();
    }
  }
  lexer.advance();
  leaveNesting(ctx);
  const arity = signature.params.length;
  if (raw.length !== arity) {
    throw new JsonPathSyntaxError(`expected ${arity} argument${arity === 1 ? "" : "s"} for ${name}(), found ${raw.length}`, nameToken.start);
  }
  const args = raw.map((a, i) => checkArgument(ctx, name, i, signature.params[i], a.expr, a.start));
  const call: FunctionCall = { kind: "call", name, args };
  ctx.spans.set(call, { start: nameToken.start, end: lexer.previousEnd });
  return call;
}

function resultType(expr: Expr): ParamType {
  if (expr.kind === "literal") return "value";
  if (expr.kind === "query") return expr.singular ? "value" : "nodes";
  if (expr.kind === "call") return FUNCTIONS[expr.name].result;
  return "logical";
}

function describe(ctx: ParseContext, expr: Expr): string {
  switch (expr.kind) {
    case "literal":
      return `literal ${sourceOf(ctx, expr)}`;
    case "query":
      return `${expr.singular ? "" : "non-singular "}query ${sourceOf(ctx, expr)}`;
    case "call":
      return `${expr.name}(), which returns ${TYPE_NAMES[FUNCTIONS[expr.name].result]}`;
    default:
      return "a logical expression";
  }
}

function checkArgument(ctx: ParseContext, fn: string, index: number, type: ParamType, expr: Expr, at: number): Argument {
  const what = `argument ${index + 1} of ${fn}()`;
  if (type === "logical") return toLogical(ctx, expr, at);
  const ok = type === "nodes" ? expr.kind === "query" || (expr.kind === "call" && FUNCTIONS[expr.name].result === "nodes") : resultType(expr) === "value";
  if (ok) return expr as Argument;
  const expected = type === "nodes" ? `a query as ${what}` : `a value (a literal, a singular query or a function returning a value) as ${what}`;
  const hint = expr.kind === "query" ? "a singular query uses only .name, ['name'] and [index]; for several nodes use count() or value()" : undefined;
  throw new JsonPathSyntaxError(`expected ${expected}, found ${describe(ctx, expr)}`, startOf(ctx, expr, at), hint);
}

/** Places an operand where true/false is needed (RFC 9535 test-expr). */
function toLogical(ctx: ParseContext, expr: Expr, at: number): LogicalExpr {
  switch (expr.kind) {
    case "query":
      return { kind: "exists", query: expr };
    case "literal":
      throw new JsonPathSyntaxError(
        `expected a query, a function call or a comparison, found ${describe(ctx, expr)}`,
        startOf(ctx, expr, at),
        "a literal cannot stand alone as a test; compare it, e.g. @.status == 'paid'",
      );
    case "call":
      if (FUNCTIONS[expr.name].result === "value") {
        throw new JsonPathSyntaxError(
          `expected a test (true or false), found ${describe(ctx, expr)}`,
          startOf(ctx, expr, at),
          `compare it, e.g. ${sourceOf(ctx, expr)} > 0`,
        );
      }
      return { kind: "test", call: expr };
    default:
      return expr;
  }
}

function checkComparable(ctx: ParseContext, expr: Expr, op: ComparisonOp, other: Expr, left: boolean): Comparable {
  if (expr.kind === "literal" || (expr.kind === "query" && expr.singular)) return expr;
  if (expr.kind === "call" && FUNCTIONS[expr.name].result === "value") return expr;
  const side = left ? "left" : "right";
  const at = startOf(ctx, expr, 0);
  if (expr.kind === "query") {
    const span = ctx.spans.get(expr)!;
    const text = ctx.source.slice(span.start, span.end);
    const segments = (span.segments ?? []).map((s) => ({ start: s.start - span.start, end: s.end - span.start }));
    const suggestion = filterSuggestion(expr, { text, segments }, op, sourceOf(ctx, other), left);
    throw new JsonPathSyntaxError(
      `expected a singular query (at most one node) on the ${side} of '${op}', found non-singular query ${text}`,
      at,
      `a comparison needs a single value; to test each element use a filter selector, e.g. ${suggestion}`,
    );
  }
  const hint = expr.kind === "call" ? `${expr.name}() is a test on its own; use it without comparing` : undefined;
  throw new JsonPathSyntaxError(
    `expected a literal, a singular query or a function returning a value on the ${side} of '${op}', found ${describe(ctx, expr)}`,
    at,
    hint,
  );
}
