// Regexes evaluated on the host in time linear in the input whatever the pattern (RE2's
// automata, here its JavaScript port re2js), for the patterns whose meaning RE2 shares: I-Regexp
// (RFC 9485), in JSONPath's match()/search() and in JSON Schema's `pattern`. Any other pattern
// is a user regex that runs only in the sandbox (README "The sandbox and its limits").
import { RE2JS } from "re2js";
import { translateIRegexp, type RegexDialect } from "../jsonpath/iregexp.ts";

/** A compiled pattern: `test` answers in time linear in `value`. */
export interface LinearRegex {
  test(value: string): boolean;
}

/**
 * How a pattern is read: `jsonpath` — an I-Regexp of match() (whole string) or search() (any
 * substring), `.` excluding CR and LF; `ecmascript` — a JSON Schema `pattern` (ECMA-262 with the
 * `u` flag, unanchored), accepted here only when it is written in I-Regexp's syntax, where the two
 * agree but for `.`, which then also excludes U+2028 and U+2029 as ECMAScript's does.
 */
export type PatternReading = "jsonpath-match" | "jsonpath-search" | "ecmascript";

const DIALECTS: Record<PatternReading, RegexDialect> = {
  "jsonpath-match": { escape: "re2", dot: "i-regexp" },
  "jsonpath-search": { escape: "re2", dot: "i-regexp" },
  ecmascript: { escape: "re2", dot: "ecmascript" },
};

const CACHE_LIMIT = 512;
const CACHEABLE_LENGTH = 1024;
const cache = new Map<string, LinearRegex | null>();

/**
 * The pattern compiled for the linear engine, or null when it cannot be (not I-Regexp, or beyond
 * what RE2 takes: a repeat count over 1000, the category `Cn`): such a pattern stays in the
 * sandbox. Cached (bounded).
 *
 * @example
 * ```ts
 * linearRegex(".*@example\\.com", "jsonpath-match")!.test("jane@example.com"); // true
 * linearRegex("^evt_[a-z]+$", "ecmascript")!.test("evt_abc"); // true
 * linearRegex("(?=a)", "ecmascript"); // null: not I-Regexp, the sandbox evaluates it
 * ```
 */
export function linearRegex(pattern: string, reading: PatternReading): LinearRegex | null {
  const key = `${reading}\u0000${pattern}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const compiled = compile(pattern, reading);
  if (pattern.length <= CACHEABLE_LENGTH) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, compiled);
  }
  return compiled;
}

function compile(pattern: string, reading: PatternReading): LinearRegex | null {
  const source = translateIRegexp(pattern, DIALECTS[reading]);
  if (source === null) return null;
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch {
    return null;
  }
  if (reading === "jsonpath-match") return { test: (value) => re.matches(value) };
  return { test: (value) => re.matcher(value).find() };
}
