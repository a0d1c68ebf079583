/**
 * A JSONPath query or filter expression that does not conform to RFC 9535 (or breaks one of
 * inlet's limits). The message says what was expected, what was found and where; `position` is
 * the 0-based offset (UTF-16 code units) in the source text.
 */
export class JsonPathSyntaxError extends Error {
  readonly position: number;

  constructor(detail: string, position: number, hint?: string) {
    super(`${detail} at position ${position}${hint === undefined ? "" : `: ${hint}`}`);
    this.name = "JsonPathSyntaxError";
    this.position = position;
  }
}
