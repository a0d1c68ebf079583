import { parseJson } from "../json/index.ts";

/**
 * A string that holds a JSON object or array: a text body sent without a JSON content type, or a
 * field such as Slack's form field `payload`. Redaction looks inside it, or the fields it carries
 * would be stored unredacted (README "PII redaction").
 */
export interface EmbeddedJson {
  readonly value: object;
  /**
   * How many object members the text writes. `JSON.parse` keeps the last of duplicate names, so
   * when the parsed value has fewer, the text holds a shadowed value redaction never sees.
   */
  members(): number;
}

/**
 * The JSON object or array `text` holds, else null (another JSON value, or not JSON). Only a text
 * shaped like one (see `mayHoldJson`) is parsed, so ordinary strings cost a character or two. A failure other than a syntax error (memory) is
 * thrown: redaction then fails closed rather than keep the text as it came. Its numbers are kept
 * exactly (ExactNumber), so a text redacted inside is written back with them as they were.
 *
 * @example
 * ```ts
 * parseEmbeddedJson('{"email":"a@b.c"}')?.value; // { email: "a@b.c" }
 * parseEmbeddedJson("[INFO] started");            // null
 * ```
 */
export function parseEmbeddedJson(text: string): EmbeddedJson | null {
  if (!mayHoldJson(text)) return null;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
  if (value === null || typeof value !== "object") return null;
  let members: number | undefined;
  return { value, members: () => (members ??= membersIn(text)) };
}

/** Whether `text` is shaped like a JSON object or array: `{`…`}` or `[`…`]`, JSON whitespace aside. */
export function mayHoldJson(text: string): boolean {
  const first = edge(text, 0, 1);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) return false;
  const last = edge(text, text.length - 1, -1);
  return last === CLOSE_OBJECT || last === CLOSE_ARRAY;
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** The first character from `start` in direction `step` that is not JSON whitespace (-1: none). */
function edge(text: string, start: number, step: 1 | -1): number {
  for (let i = start; i >= 0 && i < text.length; i += step) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c;
  }
  return -1;
}

/** Outside strings, a valid JSON text has a colon exactly where it writes an object member. */
function membersIn(text: string): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === COLON) count++;
  }
  return count;
}
