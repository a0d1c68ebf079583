// On-demand tokenizer for RFC 9535 text. Whitespace is skipped but remembered per token
// (`spaceBefore`), because the grammar forbids it in a few places (after `.` and `..`, before
// the `(` of a function call, around the whole query).
import { scanNumber, scanString } from "./literals.ts";

export type TokenKind =
  | "$"
  | "@"
  | "."
  | ".."
  | "["
  | "]"
  | "("
  | ")"
  | ","
  | ":"
  | "?"
  | "*"
  | "!"
  | "=="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "&&"
  | "||"
  // Not RFC 9535 tokens; kept so the parser can explain the mistake.
  | "="
  | "&"
  | "|"
  | "invalid"
  | "string"
  | "number"
  | "name"
  | "eof";

export interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  readonly spaceBefore: boolean;
  /** Decoded value of a string, raw text otherwise. */
  readonly text: string;
  /** For numbers: no fraction and no exponent. */
  readonly integer: boolean;
}

const PUNCTUATION: Record<string, TokenKind> = {
  $: "$",
  "@": "@",
  "[": "[",
  "]": "]",
  "(": "(",
  ")": ")",
  ",": ",",
  ":": ":",
  "?": "?",
  "*": "*",
};

const TWO_CHAR: Record<string, TokenKind> = {
  "..": "..",
  "==": "==",
  "!=": "!=",
  "<=": "<=",
  ">=": ">=",
  "&&": "&&",
  "||": "||",
};

const ONE_CHAR: Record<string, TokenKind> = {
  ".": ".",
  "=": "=",
  "!": "!",
  "<": "<",
  ">": ">",
  "&": "&",
  "|": "|",
};

/** RFC 9535 name-first: ALPHA / "_" / non-ASCII (surrogates only as a valid pair). */
export function nameCharLength(source: string, at: number, allowDigit: boolean): number {
  const c = source.charCodeAt(at);
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f) return 1;
  if (allowDigit && c >= 0x30 && c <= 0x39) return 1;
  if (c < 0x80 || Number.isNaN(c)) return 0;
  if (c >= 0xdc00 && c <= 0xdfff) return 0;
  if (c >= 0xd800 && c <= 0xdbff) {
    const low = source.charCodeAt(at + 1);
    return low >= 0xdc00 && low <= 0xdfff ? 2 : 0;
  }
  return 1;
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

export class Lexer {
  readonly source: string;
  token: Token;
  /** End offset of the token before the current one. */
  previousEnd = 0;
  private offset = 0;

  constructor(source: string) {
    this.source = source;
    this.token = this.scan();
  }

  /** The current token (a call, so type narrowing does not outlive advance()). */
  peek(): Token {
    return this.token;
  }

  /** Moves to the next token and returns it. */
  advance(): Token {
    this.previousEnd = this.token.end;
    this.token = this.scan();
    return this.token;
  }

  private scan(): Token {
    const source = this.source;
    let i = this.offset;
    while (i < source.length && isBlank(source.charCodeAt(i))) i++;
    const spaceBefore = i > this.offset;
    const start = i;
    let kind: TokenKind;
    let end = i + 1;
    let text = "";
    let integer = false;
    if (i >= source.length) {
      kind = "eof";
      end = i;
    } else {
      const ch = source[i];
      const two = source.slice(i, i + 2);
      const c = source.charCodeAt(i);
      if (ch in PUNCTUATION) kind = PUNCTUATION[ch];
      else if (two in TWO_CHAR) {
        kind = TWO_CHAR[two];
        end = i + 2;
      } else if (ch in ONE_CHAR) kind = ONE_CHAR[ch];
      else if (c === 0x22 || c === 0x27) {
        kind = "string";
        const scanned = scanString(source, i);
        text = scanned.value;
        end = scanned.end;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        kind = "number";
        const scanned = scanNumber(source, i);
        end = scanned.end;
        integer = scanned.integer;
        text = source.slice(i, end);
      } else if (nameCharLength(source, i, false) > 0) {
        kind = "name";
        end = i;
        for (let n = nameCharLength(source, end, true); n > 0; n = nameCharLength(source, end, true)) end += n;
        text = source.slice(i, end);
      } else {
        kind = "invalid";
        end = i + (c >= 0xd800 && c <= 0xdbff && i + 1 < source.length ? 2 : 1);
        text = source.slice(i, end);
      }
    }
    this.offset = end;
    return { kind, start, end, spaceBefore, text, integer };
  }
}
