/** RFC 9110 §5.6.2: a header name is a token. */
const TOKEN_CHAR = /[A-Za-z0-9!#$%&'*+.^_`|~-]/;

const NAMED: Record<number, string> = { 0x00: "NUL", 0x0a: "line feed", 0x0d: "carriage return", 0x7f: "DEL" };

const codePoint = (c: number) => `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
const described = (c: number) =>
  NAMED[c]
    ? `${NAMED[c]} (${codePoint(c)})`
    : c < 0x20 || c === 0x7f
      ? `a control character (${codePoint(c)})`
      : `${JSON.stringify(String.fromCodePoint(c))} (${codePoint(c)})`;

/**
 * Why `name` cannot be an HTTP header name, or `null` when it can.
 *
 * @example
 * ```ts
 * headerNameProblem("X-Source"); // null
 * headerNameProblem("X Source"); // 'has " " (U+0020) at position 2: a header name is …'
 * ```
 */
export function headerNameProblem(name: string): string | null {
  if (name === "") return "a header name cannot be empty";
  let position = 0;
  for (const char of name) {
    position++;
    if (!TOKEN_CHAR.test(char)) {
      return `has ${described(char.codePointAt(0)!)} at position ${position}: a header name is letters, digits and !#$%&'*+.^_\`|~- only`;
    }
  }
  return null;
}

/**
 * Why `value` cannot be sent as an HTTP header value, or `null` when it can: no control
 * characters but tab (CR and LF would end the header; fetch refuses them and NUL), and nothing
 * past Latin-1, the only characters a header carries as single bytes.
 *
 * @example
 * ```ts
 * headerValueProblem("Bearer abc"); // null
 * headerValueProblem("a\r\nX-Evil: 1"); // "has carriage return (U+000D) at position 2: …"
 * ```
 */
export function headerValueProblem(value: string): string | null {
  let position = 0;
  for (const char of value) {
    position++;
    const c = char.codePointAt(0)!;
    if ((c < 0x20 && c !== 0x09) || c === 0x7f) {
      return `has ${described(c)} at position ${position}: a header value cannot carry control characters (tab is the only one allowed)`;
    }
    if (c > 0xff) return `has ${described(c)} at position ${position}: a header value is Latin-1 (up to U+00FF); percent-encode other characters`;
  }
  return null;
}
