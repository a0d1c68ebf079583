// Scanners for RFC 9535 string-literal and number tokens. Each returns the offset just past the
// token; string scanning also decodes the escapes.
import { JsonPathSyntaxError } from "./errors.ts";

const SIMPLE_ESCAPES: Record<string, string> = {
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  "/": "/",
  "\\": "\\",
};

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hex4(source: string, at: number): number {
  let value = 0;
  for (let i = at; i < at + 4; i++) {
    const c = source.charCodeAt(i);
    let d: number;
    if (isDigit(c)) d = c - 0x30;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else {
      throw new JsonPathSyntaxError("expected 4 hex digits after \\u in string literal, found " + describeChar(source, i), i);
    }
    value = value * 16 + d;
  }
  return value;
}

export function describeChar(source: string, at: number): string {
  if (at >= source.length) return "end of input";
  const cp = source.codePointAt(at)!;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff)) {
    return "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
  }
  return `'${String.fromCodePoint(cp)}'`;
}

/** Scans the string literal opening at `start`; returns its decoded value and end offset. */
export function scanString(source: string, start: number): { value: string; end: number } {
  const quote = source.charCodeAt(start);
  const quoteChar = String.fromCharCode(quote);
  let value = "";
  let chunk = start + 1;
  let i = chunk;
  for (;;) {
    if (i >= source.length) {
      throw new JsonPathSyntaxError(`expected closing ${quoteChar} of the string literal opened at position ${start}, found end of input`, i);
    }
    const c = source.charCodeAt(i);
    if (c === quote) break;
    if (c === 0x5c) {
      value += source.slice(chunk, i);
      const e = source[i + 1];
      if (e === quoteChar) {
        value += quoteChar;
        i += 2;
      } else if (e !== undefined && e in SIMPLE_ESCAPES) {
        value += SIMPLE_ESCAPES[e];
        i += 2;
      } else if (e === "u") {
        const unit = hex4(source, i + 2);
        i += 6;
        if (unit >= 0xdc00 && unit <= 0xdfff) {
          throw new JsonPathSyntaxError("expected a high surrogate before low surrogate escape", i - 6);
        }
        if (unit >= 0xd800 && unit <= 0xdbff) {
          if (source[i] !== "\\" || source[i + 1] !== "u") {
            throw new JsonPathSyntaxError("expected \\u low surrogate escape after high surrogate escape", i);
          }
          const low = hex4(source, i + 2);
          if (low < 0xdc00 || low > 0xdfff) {
            throw new JsonPathSyntaxError("expected a low surrogate (\\uDC00-\\uDFFF) after high surrogate escape", i);
          }
          value += String.fromCharCode(unit, low);
          i += 6;
        } else {
          value += String.fromCharCode(unit);
        }
      } else {
        throw new JsonPathSyntaxError(
          `expected one of \\b \\f \\n \\r \\t \\/ \\\\ \\${quoteChar} or \\u and four hex digits after backslash, found ${describeChar(source, i + 1)}`,
          i,
        );
      }
      chunk = i;
      continue;
    }
    if (c < 0x20) {
      throw new JsonPathSyntaxError(
        `expected a printable character in string literal, found ${describeChar(source, i)}`,
        i,
        "control characters must be escaped, e.g. \\n or \\u0001",
      );
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = source.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
        throw new JsonPathSyntaxError("expected a valid Unicode character, found a lone surrogate", i);
      }
      i += 2;
      continue;
    }
    i++;
  }
  return { value: value + source.slice(chunk, i), end: i + 1 };
}

/** Scans a number token at `start` (RFC 9535 `number`, which includes `int` and `-0`). */
export function scanNumber(source: string, start: number): { end: number; integer: boolean } {
  let i = start;
  if (source.charCodeAt(i) === 0x2d) i++;
  if (!isDigit(source.charCodeAt(i))) {
    throw new JsonPathSyntaxError(`expected a digit after '-', found ${describeChar(source, i)}`, i);
  }
  if (source.charCodeAt(i) === 0x30 && isDigit(source.charCodeAt(i + 1))) {
    throw new JsonPathSyntaxError("expected a number without leading zeros, found '0' followed by a digit", i);
  }
  while (isDigit(source.charCodeAt(i))) i++;
  let integer = true;
  if (source.charCodeAt(i) === 0x2e) {
    i++;
    if (!isDigit(source.charCodeAt(i))) {
      throw new JsonPathSyntaxError(`expected a digit after the decimal point, found ${describeChar(source, i)}`, i);
    }
    while (isDigit(source.charCodeAt(i))) i++;
    integer = false;
  }
  const e = source.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = source.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(source.charCodeAt(i))) {
      throw new JsonPathSyntaxError(`expected a digit in the exponent, found ${describeChar(source, i)}`, i);
    }
    while (isDigit(source.charCodeAt(i))) i++;
    integer = false;
  }
  const after = source.charCodeAt(i);
  const lower = after | 0x20;
  if (after === 0x2e || after === 0x5f || isDigit(after) || (lower >= 0x61 && lower <= 0x7a)) {
    throw new JsonPathSyntaxError(`expected an operator or delimiter after number ${source.slice(start, i)}, found ${describeChar(source, i)}`, i);
  }
  return { end: i, integer };
}
