/**
 * Where a number that a double cannot hold may be written: 16 or more digits (dots counted too,
 * which only errs on the safe side), or an exponent of three digits or more. A number with at
 * most 15 digits and an exponent of at most two lies well inside a double's normal range, where
 * 15 significant digits always survive, so it is exact. Strings match too (`"ref 1234567890123456"`):
 * each match is checked by `writesNumber`. Two patterns, not one alternation: the engine scans
 * for each much faster alone.
 */
const LONG_DIGITS = /[0-9.]{16}/g;
const LARGE_EXPONENT = /[eE][-+]?[0-9]{3}/g;

/** What may precede a number in a JSON text: the start, `:`, `,`, `[` or whitespace. */
function beginsValue(c: number): boolean {
  return Number.isNaN(c) || c === 0x3a || c === 0x2c || c === 0x5b || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Whether the match at `at` lies in a number of the JSON text rather than in a string. */
function writesNumber(text: string, at: number): boolean {
  let start = at;
  for (;;) {
    const c = text.charCodeAt(start - 1);
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2e)) break;
    start--;
  }
  if (text.charCodeAt(start - 1) === 0x2d) start--;
  return beginsValue(text.charCodeAt(start - 1));
}

function anyNumberMatch(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (writesNumber(text, match.index)) return true;
  }
  return false;
}

/**
 * Whether the JSON `text` may hold a number that a double cannot hold exactly (see
 * `ExactNumber`). False for nearly every webhook body, which is then parsed by `JSON.parse` alone
 * (the scan costs about a tenth of the parse); true also for some texts that hold none (a string
 * such as `"ratio: 1e100"`), which only costs the slower exact parse.
 */
export function mayHoldInexactNumbers(text: string): boolean {
  return anyNumberMatch(LONG_DIGITS, text) || anyNumberMatch(LARGE_EXPONENT, text);
}
