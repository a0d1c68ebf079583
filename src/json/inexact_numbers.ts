/**
 * Numbers that may be written with more than a double holds: 16 or more digits (a double keeps
 * 15 decimal digits exactly; dots are counted too, which only errs on the safe side), or an
 * exponent. Strings match too (`"evt_2e3"`): each match is checked by `writesNumber`.
 */
const CANDIDATE = /[0-9.]{16}|[0-9][eE][-+]?[0-9]/g;

/** What may precede a number in a JSON text: the start, `:`, `,`, `[` or whitespace. */
function beginsValue(c: number): boolean {
  return Number.isNaN(c) || c === 0x3a || c === 0x2c || c === 0x5b || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Whether the digits around `at` are a number of the JSON text rather than part of a string. */
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

/**
 * Whether the JSON `text` may hold a number that a double cannot hold exactly (see
 * `ExactNumber`). False for nearly every webhook body, which is then parsed by `JSON.parse` alone
 * (the scan costs a few µs for 64 KB); true also for some texts that hold none (a string such as
 * `"ratio: 1e5"`), which only costs the slower exact parse.
 */
export function mayHoldInexactNumbers(text: string): boolean {
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match !== null; match = CANDIDATE.exec(text)) {
    if (writesNumber(text, match.index)) return true;
  }
  return false;
}
