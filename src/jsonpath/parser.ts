// Entry points: a whole jsonpath-query, or a standalone logical-expr (inlet's filters).
import type { Filter, Query } from "./ast.ts";
import { JsonPathSyntaxError } from "./errors.ts";
import { parseLogicalExpr } from "./logical_parser.ts";
import { createContext, unexpected } from "./parse_context.ts";
import { parseQueryTail } from "./query_parser.ts";

/** Parses an RFC 9535 jsonpath-query such as `$.items[?@.price > 10].id`. */
export function parseQuery(source: string): Query {
  const ctx = createContext(source);
  const first = ctx.lexer.token;
  if (first.spaceBefore) {
    throw new JsonPathSyntaxError("expected '$' at the start of the query, found whitespace", 0);
  }
  if (first.kind !== "$") {
    // A name here is a path written without its root (`data.id`): say where the $ goes, not that strings need quotes.
    const hint =
      first.kind === "@"
        ? "@ is only valid inside a filter; a query starts with $"
        : first.kind === "name"
          ? `a query starts with $, e.g. $.${source.trim()}`
          : undefined;
    unexpected(ctx, "'$' at the start of the query", hint);
  }
  ctx.lexer.advance();
  const query = parseQueryTail(ctx, "$", 0);
  const end = ctx.lexer.token;
  if (end.kind !== "eof") unexpected(ctx, "a segment (.name, [selectors] or ..name) or the end of the query");
  if (end.spaceBefore) {
    throw new JsonPathSyntaxError("expected the end of the query, found trailing whitespace", ctx.lexer.previousEnd);
  }
  return query;
}

/**
 * Parses a standalone RFC 9535 logical-expr such as `$.type == "invoice.paid" && $.amount > 100`.
 * `$` and `@` both denote the document root. Surrounding whitespace is allowed.
 */
export function parseFilter(source: string): Filter {
  const ctx = createContext(source);
  if (ctx.lexer.peek().kind === "eof") unexpected(ctx, "a filter expression");
  const expr = parseLogicalExpr(ctx);
  if (ctx.lexer.peek().kind !== "eof") unexpected(ctx, "'&&', '||' or the end of the filter");
  return { kind: "filter", expr };
}
