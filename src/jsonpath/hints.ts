// Friendly hints appended to syntax errors: the mistakes people make when they write filters
// by hand (SQL-style `=`, unquoted strings, comparing a whole list).
import type { Query } from "./ast.ts";
import type { Token } from "./lexer.ts";

const WORD_OPERATORS: Record<string, string> = {
  and: "use && for logical AND",
  or: "use || for logical OR",
  not: "use ! for logical NOT",
};

export function tokenHint(token: Token): string | undefined {
  switch (token.kind) {
    case "=":
      return "use == for equality";
    case "&":
      return "use && for logical AND";
    case "|":
      return "use || for logical OR";
    case "name": {
      const lower = token.text.toLowerCase();
      if (Object.hasOwn(WORD_OPERATORS, lower)) return WORD_OPERATORS[lower];
      if (lower === "true" || lower === "false" || lower === "null") {
        return `literals are lowercase: ${lower}`;
      }
      return `string literals need quotes, e.g. "${token.text}"`;
    }
    default:
      return undefined;
  }
}

export interface QuerySource {
  readonly text: string;
  /** Source offsets, relative to `text`, of each segment. */
  readonly segments: readonly { readonly start: number; readonly end: number }[];
}

/**
 * Suggests a filter selector that does what a comparison of a non-singular query probably
 * meant: `$.items[*].price > 10` → `$.items[?@.price > 10]` ("is there an item whose price > 10").
 */
export function filterSuggestion(query: Query, source: QuerySource, op: string, otherText: string, queryOnLeft: boolean): string {
  const singular = query.segments.map((s) => !s.descendant && s.selectors.length === 1 && (s.selectors[0].kind === "name" || s.selectors[0].kind === "index"));
  const at = singular.indexOf(false);
  const segment = query.segments[at];
  const span = source.segments[at];
  const restSingular = singular.lastIndexOf(false) === at;
  // With `@` on the other side the rewrite would change what `@` means: show the generic form.
  if (
    segment === undefined ||
    span === undefined ||
    !restSingular ||
    segment.descendant ||
    segment.selectors[0].kind !== "wildcard" ||
    otherText.includes("@")
  ) {
    return "$.items[?@.price > 10]";
  }
  const prefix = source.text.slice(0, span.start);
  const rest = "@" + source.text.slice(span.end);
  const test = queryOnLeft ? `${rest} ${op} ${otherText}` : `${otherText} ${op} ${rest}`;
  return `${prefix}[?${test}]`;
}
