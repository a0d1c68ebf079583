import { parseJsonCounting, type ReadJson } from "../json/index.ts";
import { fieldsOf } from "./literal_fields.ts";
import { isXmlType, parseXml } from "./parse_xml.ts";
import { isMultipartType, parseMultipart, type MultipartFile } from "./parse_multipart.ts";
// One nesting limit for the whole service (256, docs/processing-order.md#limits-and-defaults): the sandbox enforces the same number.
import { MAX_NESTING_DEPTH as MAX_JSON_DEPTH } from "../sandbox/depth.ts";

/** The body does not parse under its declared content type: 400. */
export class InvalidBody extends Error {
  override name = "InvalidBody";
  readonly code = "invalid_body";
}

/** A text body (`text/*`, a form) whose bytes are not text in its charset (UTF-8 unless it names another): 400, never stored altered. */
export class InvalidText extends Error {
  override name = "InvalidText";
  readonly code = "invalid_text";
}

const decoder = new TextDecoder("utf-8", { fatal: false });
// RFC 8259 §8.1: JSON is UTF-8; a body that is not is refused, never stored with U+FFFD in its place.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  // What nearly every sender sends, decided without splitting and lower-casing a copy.
  if (contentType === "application/json" || contentType === "application/json; charset=utf-8") return true;
  const type = contentType.split(";", 1)[0].trim().toLowerCase();
  return type === "application/json" || type === "text/json" || type.endsWith("+json");
}

function isFormType(contentType: string | null): boolean {
  return contentType?.split(";", 1)[0].trim().toLowerCase() === "application/x-www-form-urlencoded";
}

/** What the shape scan looks for in a byte: 0 nothing, then a quote, a backslash, an opening or a closing bracket, a colon. */
const QUOTE = 1;
const BACKSLASH = 2;
const OPEN = 3;
const CLOSE = 4;
const COLON = 5;
const BYTE_CLASS = new Uint8Array(256);
BYTE_CLASS[0x22] = QUOTE;
BYTE_CLASS[0x5c] = BACKSLASH;
BYTE_CLASS[0x7b] = BYTE_CLASS[0x5b] = OPEN;
BYTE_CLASS[0x7d] = BYTE_CLASS[0x5d] = CLOSE;
BYTE_CLASS[0x3a] = COLON;

/** What one scan of a JSON text tells: its deepest nesting, and how many object members it writes. */
export interface JsonShape {
  depth: number;
  /** Colons outside strings: one per object member written (a duplicate name counts each time). */
  members: number;
}

/**
 * Deepest bracket nesting of a JSON text and its object members, strings skipped; stops past
 * `limit` deep. One table lookup per byte decides most bytes (a third faster than comparing each
 * with six characters).
 */
export function jsonShape(bytes: Uint8Array, limit: number): JsonShape {
  let depth = 0;
  let max = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const kind = BYTE_CLASS[bytes[i]];
    if (kind === 0) continue;
    if (inString) {
      if (kind === BACKSLASH) i++;
      else if (kind === QUOTE) inString = false;
    } else if (kind === QUOTE) inString = true;
    else if (kind === COLON) members++;
    else if (kind === OPEN) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return { depth: max, members };
      }
    } else if (kind === CLOSE) depth--;
  }
  return { depth: max, members };
}

/** Deepest bracket nesting of a JSON text, strings skipped; stops counting past `limit`. */
export function jsonDepth(bytes: Uint8Array, limit: number): number {
  return jsonShape(bytes, limit).depth;
}

/**
 * A JSON body: its value, and its text as received (decoded, a byte-order mark dropped), which is
 * known to be valid JSON of the same value — stored as is while nothing changes the body. Numbers
 * a double cannot hold are kept as ExactNumbers (README "Payload rules"); `exactNumbers` counts them.
 * `parsed`: these very bytes, already parsed by a plugin's hook (leniently: the depth and UTF-8
 * checks still run here, and refuse what they refuse), so they are not parsed a second time.
 */
function parseJsonBody(bytes: Uint8Array, parsed: ReadJson | null = null): ReadJson & { text: string; members: number } {
  const { depth, members } = jsonShape(bytes, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) throw new InvalidBody(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new InvalidBody("JSON body is not valid UTF-8 (RFC 8259 §8.1): it would not be stored as sent");
  }
  if (parsed) return { ...parsed, text, members };
  try {
    return { ...parseJsonCounting(text), text, members };
  } catch (error) {
    // The engine quotes the bare word it choked on (`Unexpected identifier "hunter2"`): a piece of
    // the body, which the Activity row would keep unredacted. The reason stays, the word goes.
    throw new InvalidBody(`body is not valid JSON: ${(error as Error).message.replace(/ "[^"]*"/g, "")}`);
  }
}

/**
 * Parses a body (docs/processing-order.md#parse): JSON types must parse; XML types must be
 * well-formed, safe XML (an object, see parseXml); form bodies become an object of fields, and so
 * do multipart bodies, whose file parts are described in `files` (see parseMultipart);
 * anything else is a string. An empty body without a JSON type is `null`. A JSON body comes with
 * its text as received and the count of its ExactNumbers (see parseJsonBody, and its `parsed`).
 */
export function parseBodyAndText(
  bytes: Uint8Array,
  contentType: string | null,
  parsed: ReadJson | null = null,
): { value: unknown; jsonText?: string; exactNumbers?: number; textMembers?: number; files?: MultipartFile[] } {
  if (isJsonType(contentType)) {
    const { value, text, exactNumbers, members } = parseJsonBody(bytes, parsed);
    return { value, jsonText: text, exactNumbers, textMembers: members };
  }
  if (isXmlType(contentType)) return { value: parseXml(bytes) };
  if (isMultipartType(contentType)) {
    const { fields, files } = parseMultipart(bytes, contentType!);
    return { value: fields, files };
  }
  if (bytes.length === 0) return { value: null };
  if (isFormType(contentType)) return { value: fieldsOf(new URLSearchParams(textOf(bytes, contentType))) };
  if (isTextType(contentType)) return { value: textOf(bytes, contentType) };
  // Not promised as text (none, octet-stream…): kept as a string, bytes that are no UTF-8 as U+FFFD.
  return { value: decoder.decode(bytes) };
}

/** One strict decoder per charset a sender named (a handful in practice), not one per request. */
const decoders = new Map<string, TextDecoder>();
function decoderFor(charset: string): TextDecoder {
  let decoder = decoders.get(charset);
  if (!decoder) {
    decoder = new TextDecoder(charset, { fatal: true }); // throws for a label it does not know: never cached
    decoders.set(charset, decoder);
  }
  return decoder;
}

function isTextType(contentType: string | null): boolean {
  return contentType?.trimStart().slice(0, 5).toLowerCase() === "text/";
}

/**
 * A body its content type promises is text (docs/processing-order.md#data-kept-exactly): decoded by
 * the charset it names (UTF-8 when none), refused when its bytes are not that, never altered with
 * U+FFFD.
 */
function textOf(bytes: Uint8Array, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1].toLowerCase() ?? "utf-8";
  let strict: TextDecoder;
  try {
    strict = charset === "utf-8" || charset === "utf8" ? strictUtf8 : decoderFor(charset);
  } catch {
    throw new InvalidText(`the body's charset ${JSON.stringify(charset)} is not one inlet can read (send UTF-8)`);
  }
  try {
    return strict.decode(bytes);
  } catch {
    throw new InvalidText(`the body is not valid ${charset}, as its content type says: it would not be stored as sent`);
  }
}
