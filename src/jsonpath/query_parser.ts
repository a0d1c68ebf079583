// Segments and selectors (RFC 9535 §2.3–2.5): everything after a `$` or `@` identifier.
import type { Query, Segment, Selector } from "./ast.ts";
import { JsonPathSyntaxError } from "./errors.ts";
import { parseLogicalExpr } from "./logical_parser.ts";
import { enterNesting, expectToken, leaveNesting, type ParseContext, unexpected } from "./parse_context.ts";

const SELECTOR_EXPECTED = "a selector (a quoted name, an index, a slice, '*' or a ?filter)";

export function isSingularSegments(segments: readonly Segment[]): boolean {
  for (const s of segments) {
    if (s.descendant || s.selectors.length !== 1) return false;
    const kind = s.selectors[0].kind;
    if (kind !== "name" && kind !== "index") return false;
  }
  return true;
}

/** Parses the segments after a root identifier that started at `start`; the lexer sits just
 * past the identifier. */
export function parseQueryTail(ctx: ParseContext, root: "$" | "@", start: number): Query {
  const lexer = ctx.lexer;
  const segments: Segment[] = [];
  const spans: { start: number; end: number }[] = [];
  for (;;) {
    const token = lexer.token;
    let segment: Segment;
    if (token.kind === "." || token.kind === "..") {
      const descendant = token.kind === "..";
      const next = lexer.advance();
      if (next.spaceBefore) {
        throw new JsonPathSyntaxError(`expected a member name right after '${token.kind}', found whitespace`, token.end);
      }
      if (next.kind === "name") {
        segment = { descendant, selectors: [{ kind: "name", name: next.text }] };
        lexer.advance();
      } else if (next.kind === "*") {
        segment = { descendant, selectors: [{ kind: "wildcard" }] };
        lexer.advance();
      } else if (descendant && next.kind === "[") {
        segment = { descendant, selectors: parseBracketed(ctx) };
      } else {
        const hint = next.kind === "number" ? `member names cannot start with a digit: use ['${next.text}'] for a name or [${next.text}] for an index` : null;
        unexpected(ctx, `a member name or '*' after '${token.kind}'`, hint);
      }
    } else if (token.kind === "[") {
      segment = { descendant: false, selectors: parseBracketed(ctx) };
    } else {
      break;
    }
    segments.push(segment);
    spans.push({ start: token.start, end: lexer.previousEnd });
  }
  const query: Query = { kind: "query", root, segments, singular: isSingularSegments(segments) };
  ctx.spans.set(query, { start, end: lexer.previousEnd, segments: spans });
  return query;
}

/** bracketed-selection = "[" S selector *(S "," S selector) S "]"; lexer on the "[". */
function parseBracketed(ctx: ParseContext): Selector[] {
  ctx.lexer.advance();
  const selectors: Selector[] = [];
  for (;;) {
    selectors.push(parseSelector(ctx));
    const token = ctx.lexer.token;
    if (token.kind === "]") break;
    if (token.kind !== ",") {
      const hint = token.kind === "number" || token.kind === "string" ? "separate selectors with ','" : undefined;
      unexpected(ctx, "',' or ']' after a selector", hint);
    }
    ctx.lexer.advance();
  }
  ctx.lexer.advance();
  return selectors;
}

function parseSelector(ctx: ParseContext): Selector {
  const lexer = ctx.lexer;
  const token = lexer.token;
  switch (token.kind) {
    case "string":
      lexer.advance();
      return { kind: "name", name: token.text };
    case "*":
      lexer.advance();
      return { kind: "wildcard" };
    case "?": {
      lexer.advance();
      enterNesting(ctx, token.start);
      const expr = parseLogicalExpr(ctx);
      leaveNesting(ctx);
      return { kind: "filter", expr };
    }
    case "number":
    case ":": {
      const start = token.kind === "number" ? parseInteger(ctx, "index") : null;
      if (lexer.peek().kind !== ":") return { kind: "index", index: start! };
      lexer.advance();
      const end = lexer.peek().kind === "number" ? parseInteger(ctx, "slice end") : null;
      let step: number | null = null;
      if (lexer.peek().kind === ":") {
        lexer.advance();
        if (lexer.peek().kind === "number") step = parseInteger(ctx, "slice step");
      }
      return { kind: "slice", start, end, step };
    }
    case "@":
    case "$":
      return unexpected(ctx, SELECTOR_EXPECTED, `a filter selector starts with '?', e.g. [?${token.kind}.price > 10]`);
    case "]":
      return unexpected(ctx, SELECTOR_EXPECTED, "a bracketed selection needs at least one selector");
    default:
      return unexpected(ctx, SELECTOR_EXPECTED);
  }
}

/** An RFC 9535 `int` within the I-JSON exact range ±(2^53−1). */
function parseInteger(ctx: ParseContext, what: string): number {
  const token = ctx.lexer.token;
  if (!token.integer || token.text === "-0") {
    throw new JsonPathSyntaxError(
      `expected an integer ${what}, found number ${token.text}`,
      token.start,
      token.text === "-0" ? "-0 is not an index; use 0" : undefined,
    );
  }
  const value = Number(token.text);
  if (!Number.isSafeInteger(value)) {
    throw new JsonPathSyntaxError(`expected an integer ${what} between -9007199254740991 and 9007199254740991, found ${token.text}`, token.start);
  }
  expectToken(ctx, "number", `an integer ${what}`);
  return value;
}
