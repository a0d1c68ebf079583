// State shared by the query and filter parsers, and the error helpers they throw through.
import { JsonPathSyntaxError } from "./errors.ts";
import { tokenHint } from "./hints.ts";
import { describeChar } from "./literals.ts";
import { Lexer, type Token } from "./lexer.ts";

/** Deepest nesting of parentheses, filter selectors and function calls a parse accepts. */
export const MAX_NESTING = 64;

export interface Span {
  readonly start: number;
  readonly end: number;
  /** For queries: the source range of each segment. */
  readonly segments?: readonly { readonly start: number; readonly end: number }[];
}

export interface ParseContext {
  readonly lexer: Lexer;
  readonly source: string;
  depth: number;
  /** Source ranges of parsed operands, kept only for error messages. */
  readonly spans: Map<object, Span>;
}

export function createContext(source: string): ParseContext {
  return { lexer: new Lexer(source), source, depth: 0, spans: new Map() };
}

export function describeToken(token: Token, source: string): string {
  switch (token.kind) {
    case "eof":
      return "end of input";
    case "string":
      return `string literal ${JSON.stringify(token.text)}`;
    case "number":
      return `number ${token.text}`;
    case "name":
      return `bare word '${token.text}'`;
    case "invalid":
      return describeChar(source, token.start);
    default:
      return `'${token.kind}'`;
  }
}

/** Throws "expected <expected>, found <current token> at position N[: hint]". Without a hint,
 * one is derived from the token (`=` → "use =="); `null` means none. */
export function unexpected(ctx: ParseContext, expected: string, hint?: string | null): never {
  const token = ctx.lexer.token;
  throw new JsonPathSyntaxError(
    `expected ${expected}, found ${describeToken(token, ctx.source)}`,
    token.start,
    hint === null ? undefined : (hint ?? tokenHint(token)),
  );
}

export function expectToken(ctx: ParseContext, kind: Token["kind"], expected: string): Token {
  const token = ctx.lexer.token;
  if (token.kind !== kind) unexpected(ctx, expected);
  ctx.lexer.advance();
  return token;
}

export function enterNesting(ctx: ParseContext, position: number): void {
  ctx.depth++;
  if (ctx.depth > MAX_NESTING) {
    throw new JsonPathSyntaxError(`expected at most ${MAX_NESTING} nested levels of parentheses, filters and function calls, found deeper nesting`, position);
  }
}

export function leaveNesting(ctx: ParseContext): void {
  ctx.depth--;
}

export function sourceOf(ctx: ParseContext, node: object): string {
  const span = ctx.spans.get(node);
  return span === undefined ? "" : ctx.source.slice(span.start, span.end);
}

export function startOf(ctx: ParseContext, node: object, fallback: number): number {
  return ctx.spans.get(node)?.start ?? fallback;
}
