// I-Regexp (RFC 9485) → ECMAScript RegExp, following RFC 9485 §5.3: validate against the
// I-Regexp grammar, replace `.` outside classes by `[^\n\r]`, compile with the `u` flag, and
// anchor the whole pattern for match(). A pattern that is not I-Regexp yields null, which
// match()/search() turn into LogicalFalse.
//
// One deliberate difference: `^` and `$` pass through as JavaScript anchors (the RFC grammar
// reads them as literal characters). The compliance suite expects `match(@, '^ab.*')` to match
// "abc", as JavaScript- and PCRE-backed implementations do.

const CACHE_LIMIT = 256;
// Patterns can come from the document (`match(@.a, $.pattern)`); long ones are compiled each
// time rather than pinned in the sandbox's capped memory.
const CACHEABLE_LENGTH = 1024;
const cache = new Map<string, RegExp | null>();

const CATEGORIES = new Set([
  "L",
  "Ll",
  "Lm",
  "Lo",
  "Lt",
  "Lu",
  "M",
  "Mc",
  "Me",
  "Mn",
  "N",
  "Nd",
  "Nl",
  "No",
  "P",
  "Pc",
  "Pd",
  "Pe",
  "Pf",
  "Pi",
  "Po",
  "Ps",
  "Z",
  "Zl",
  "Zp",
  "Zs",
  "S",
  "Sc",
  "Sk",
  "Sm",
  "So",
  "C",
  "Cc",
  "Cf",
  "Cn",
  "Co",
]);

/** SingleCharEsc: the character an escape stands for. */
const SINGLE_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09 };
for (const c of "()*+-.?[\\]^{|}") SINGLE_ESCAPES[c] = c.charCodeAt(0);

const JS_SYNTAX = "^$\\.*+?()[]{}|/";
const CLASS_SYNTAX = "\\]-^[";

type Escape = { kind: "char"; cp: number; end: number } | { kind: "class"; text: string; end: number };

/** Compiled regex for an I-Regexp, or null when the pattern is not valid I-Regexp. Cached. */
export function compileIRegexp(pattern: string, whole: boolean): RegExp | null {
  const key = (whole ? "m" : "s") + pattern;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const source = translateIRegexp(pattern);
  let re: RegExp | null = null;
  if (source !== null) {
    try {
      re = new RegExp(whole ? `^(?:${source})$` : source, "u");
    } catch {
      re = null; // e.g. a quantifier bound the engine rejects
    }
  }
  if (pattern.length > CACHEABLE_LENGTH) return re;
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, re);
  return re;
}

/** For tests: how many patterns the bounded cache holds. */
export function cachedPatternCount(): number {
  return cache.size;
}

/**
 * The regex syntax a translation is written in: ECMAScript (with the `u` flag), or RE2's (for a
 * linear-time engine on the host). They differ in how a code point is escaped and in what `.`
 * excludes (I-Regexp: CR and LF; an ECMAScript pattern's own `.`: every line terminator).
 */
export interface RegexDialect {
  escape: "ecmascript" | "re2";
  dot: "i-regexp" | "ecmascript";
}

const ECMASCRIPT: RegexDialect = { escape: "ecmascript", dot: "i-regexp" };

function hexEscape(cp: number, dialect: RegexDialect): string {
  return dialect.escape === "re2" ? `\\x{${cp.toString(16)}}` : `\\u{${cp.toString(16)}}`;
}

function literal(cp: number, inClass: boolean, dialect: RegexDialect): string {
  const ch = String.fromCodePoint(cp);
  if ((inClass ? CLASS_SYNTAX : JS_SYNTAX).includes(ch)) return "\\" + ch;
  if (cp < 0x20 || cp === 0x7f) return hexEscape(cp, dialect);
  return ch;
}

function isLoneSurrogate(p: string, i: number): boolean {
  const c = p.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return false;
  const next = p.charCodeAt(i + 1);
  return c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff);
}

function escape(p: string, i: number): Escape | null {
  const c = p[i + 1];
  if (c === "p" || c === "P") {
    if (p[i + 2] !== "{") return null;
    const close = p.indexOf("}", i + 3);
    if (close < 0 || !CATEGORIES.has(p.slice(i + 3, close))) return null;
    return { kind: "class", text: p.slice(i, close + 1), end: close + 1 };
  }
  if (c === undefined || !Object.hasOwn(SINGLE_ESCAPES, c)) return null;
  return { kind: "char", cp: SINGLE_ESCAPES[c], end: i + 2 };
}

/** A CCchar at `i` (raw or escaped): its code point and end, or null. */
function classChar(p: string, i: number): { cp: number; end: number } | null {
  const c = p[i];
  if (c === undefined || c === "-" || c === "[" || c === "]") return null;
  if (c === "\\") {
    const e = escape(p, i);
    return e !== null && e.kind === "char" ? e : null;
  }
  if (isLoneSurrogate(p, i)) return null;
  const cp = p.codePointAt(i)!;
  return { cp, end: i + (cp > 0xffff ? 2 : 1) };
}

/** charClassExpr = "[" ["^"] ("-" / CCE1) *CCE1 ["-"] "]" */
function charClass(p: string, start: number, dialect: RegexDialect): { text: string; end: number } | null {
  let i = start + 1;
  let out = "[";
  if (p[i] === "^") {
    out += "^";
    i++;
  }
  let items = 0;
  if (p[i] === "-") {
    out += "\\-";
    i++;
    items++;
  }
  for (;;) {
    const c = p[i];
    if (c === undefined) return null;
    if (c === "]") {
      if (items === 0) return null;
      return { text: out + "]", end: i + 1 };
    }
    if (c === "-") {
      if (items === 0 || p[i + 1] !== "]") return null;
      out += "\\-";
      i++;
      continue;
    }
    if (c === "\\" && (p[i + 1] === "p" || p[i + 1] === "P")) {
      const e = escape(p, i);
      if (e === null || e.kind !== "class") return null;
      out += e.text;
      i = e.end;
      items++;
      continue;
    }
    const low = classChar(p, i);
    if (low === null) return null;
    i = low.end;
    if (p[i] === "-" && p[i + 1] !== "]") {
      const high = classChar(p, i + 1);
      if (high === null || high.cp < low.cp) return null;
      out += literal(low.cp, true, dialect) + "-" + literal(high.cp, true, dialect);
      i = high.end;
    } else {
      out += literal(low.cp, true, dialect);
    }
    items++;
  }
}

/** range-quantifier = "{" QuantExact [ "," [ QuantExact ] ] "}" */
function rangeQuantifier(p: string, start: number): { text: string; end: number } | null {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(start, start + 40));
  if (m === null) return null;
  if (m[3] !== undefined && m[3] !== "" && Number(m[3]) < Number(m[1])) return null;
  return { text: m[0], end: start + m[0].length };
}

/**
 * The source for an I-Regexp (unanchored) in `dialect` (default: ECMAScript, I-Regexp's `.`), or
 * null if the pattern is not I-Regexp.
 */
export function translateIRegexp(p: string, dialect: RegexDialect = ECMASCRIPT): string | null {
  let out = "";
  let depth = 0;
  let quantifiable = false;
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === "(" || c === "|") {
      out += c === "(" ? "(?:" : "|";
      if (c === "(") depth++;
      i++;
      quantifiable = false;
    } else if (c === ")") {
      if (depth === 0) return null;
      depth--;
      out += ")";
      i++;
      quantifiable = true;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      if (!quantifiable) return null;
      const q = c === "{" ? rangeQuantifier(p, i) : { text: c, end: i + 1 };
      if (q === null) return null;
      out += q.text;
      i = q.end;
      quantifiable = false;
    } else if (c === "]" || c === "}") {
      return null;
    } else {
      if (c === ".") {
        out += dialect.dot === "i-regexp" ? "[^\\n\\r]" : dialect.escape === "re2" ? "[^\\n\\r\\x{2028}\\x{2029}]" : "[^\\n\\r\\u2028\\u2029]";
        i++;
      } else if (c === "[") {
        const cls = charClass(p, i, dialect);
        if (cls === null) return null;
        out += cls.text;
        i = cls.end;
      } else if (c === "\\") {
        const e = escape(p, i);
        if (e === null) return null;
        out += e.kind === "class" ? e.text : literal(e.cp, false, dialect);
        i = e.end;
      } else if (c === "^" || c === "$") {
        out += c;
        i++;
      } else {
        if (isLoneSurrogate(p, i)) return null;
        const cp = p.codePointAt(i)!;
        out += literal(cp, false, dialect);
        i += cp > 0xffff ? 2 : 1;
      }
      quantifiable = true;
    }
  }
  return depth === 0 ? out : null;
}
