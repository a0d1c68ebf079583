// multipart/form-data (RFC 7578) as `$trigger`: text fields in `body`, file parts described in
// `files` (their bytes are hashed, never stored). README "Multipart bodies".
import { parseJson } from "../json/index.ts";
import { addField } from "./literal_fields.ts";

/** A multipart body that does not parse (no boundary, a truncated part, a part without a name): 400. */
export class InvalidMultipart extends Error {
  override name = "InvalidMultipart";
  readonly code = "invalid_multipart";
}

/** More parts than `MAX_PARTS`: 413, like a body over its size limit. */
export class TooManyParts extends Error {
  override name = "TooManyParts";
  readonly code = "too_many_parts";
}

/** A file part of a multipart body, as `$trigger.files` lists it. */
export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  /** SHA-256 of the part's bytes, hex. */
  sha256: string;
}

/** At most this many parts in one body. */
export const MAX_PARTS = 1000;

export function isMultipartType(contentType: string | null): boolean {
  return contentType?.split(";", 1)[0].trim().toLowerCase() === "multipart/form-data";
}

const CRLF = Buffer.from("\r\n");
const HEADERS_END = Buffer.from("\r\n\r\n");
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The fields and files of a multipart/form-data body. A part with a filename is a file: listed in
 * `files` in body order (its field is not in `fields`); any other part is a field, text in the
 * charset its type names (UTF-8 by default), parsed when its type is JSON; a repeated name makes
 * an array. Throws `InvalidMultipart` or `TooManyParts`.
 *
 * @example
 * ```ts
 * const body = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n';
 * parseMultipart(new TextEncoder().encode(body), "multipart/form-data; boundary=b");
 * // { fields: { a: "1" }, files: [] }
 * ```
 */
export function parseMultipart(bytes: Uint8Array, contentType: string): { fields: Record<string, unknown>; files: MultipartFile[] } {
  const boundary = boundaryOf(contentType);
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, unknown> = {};
  const files: MultipartFile[] = [];
  let at = firstDelimiter(data, delimiter);
  let parts = 0;
  for (;;) {
    at += delimiter.length;
    if (data[at] === 0x2d && data[at + 1] === 0x2d) return { fields, files }; // "--": the close delimiter; the epilogue is ignored
    at = afterLineEnd(data, at);
    const headersEnd = data.indexOf(HEADERS_END, at - 2);
    if (headersEnd === -1) throw new InvalidMultipart("a part's headers are not ended by an empty line (truncated body?)");
    const headers = partHeaders(data.subarray(at, headersEnd));
    const contentStart = headersEnd + HEADERS_END.length;
    const next = nextDelimiter(data, Buffer.concat([CRLF, delimiter]), contentStart);
    if (next === -1) throw new InvalidMultipart(`part ${JSON.stringify(headers.name)} is not ended by the boundary (truncated body?)`);
    if (++parts > MAX_PARTS) throw new TooManyParts(`more than ${MAX_PARTS} parts`);
    takePart(headers, data.subarray(contentStart, next), fields, files);
    at = next + CRLF.length;
  }
}

/** The `boundary` parameter of a multipart content type (RFC 2046: 1–70 characters, maybe quoted). */
function boundaryOf(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new InvalidMultipart("the Content-Type names no boundary (multipart/form-data; boundary=…)");
  return boundary;
}

/** Where the first delimiter starts: at the very start, or after a preamble ending in CRLF. */
function firstDelimiter(data: Buffer, delimiter: Buffer): number {
  if (data.subarray(0, delimiter.length).equals(delimiter)) return 0;
  const at = data.indexOf(Buffer.concat([CRLF, delimiter]));
  if (at === -1) throw new InvalidMultipart("the body holds no part: its boundary never appears");
  return at + CRLF.length;
}

/**
 * Where the CRLF before the next delimiter is: `--boundary` counts only when what follows it ends
 * the line (padding, CRLF) or the body (`--`), so content that merely starts like it stays content.
 */
function nextDelimiter(data: Buffer, crlfDelimiter: Buffer, from: number): number {
  for (let at = data.indexOf(crlfDelimiter, from); at !== -1; at = data.indexOf(crlfDelimiter, at + 1)) {
    let after = at + crlfDelimiter.length;
    if (data[after] === 0x2d && data[after + 1] === 0x2d) return at;
    while (data[after] === 0x20 || data[after] === 0x09) after++;
    if (data[after] === 0x0d && data[after + 1] === 0x0a) return at;
  }
  return -1;
}

/** Past a delimiter's optional transport padding (spaces, tabs) and its CRLF. */
function afterLineEnd(data: Buffer, at: number): number {
  while (data[at] === 0x20 || data[at] === 0x09) at++;
  if (data[at] !== 0x0d || data[at + 1] !== 0x0a) throw new InvalidMultipart("a boundary is not followed by a line end (truncated or malformed body)");
  return at + 2;
}

interface PartHeaders {
  name: string;
  filename: string | null;
  contentType: string | null;
}

function partHeaders(block: Buffer): PartHeaders {
  let text: string;
  try {
    text = strictUtf8.decode(block);
  } catch {
    throw new InvalidMultipart("a part's headers are not UTF-8");
  }
  let disposition: string | null = null;
  let contentType: string | null = null;
  for (const line of text.split("\r\n")) {
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new InvalidMultipart(`a part's header line has no name: ${JSON.stringify(line.slice(0, 60))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  if (disposition === null || !/^form-data\s*(;|$)/i.test(disposition)) throw new InvalidMultipart("a part has no Content-Disposition: form-data header");
  const name = parameter(disposition, "name");
  if (name === null) throw new InvalidMultipart("a part's Content-Disposition names no field (name=…)");
  return { name, filename: extendedFilename(disposition) ?? parameter(disposition, "filename"), contentType };
}

/** A `key=value` or `key="value"` parameter of a header value (quoted: `\"` and `\\` unescaped). */
function parameter(header: string, key: string): string | null {
  const match = new RegExp(`;\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(header);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2];
}

/** RFC 5987's `filename*=UTF-8''…`, where a sender gives one. */
function extendedFilename(header: string): string | null {
  const match = /;\s*filename\*\s*=\s*utf-8''([^;\s]*)/i.exec(header);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    throw new InvalidMultipart("a part's filename* is not valid percent-encoded UTF-8");
  }
}

function takePart(headers: PartHeaders, content: Buffer, fields: Record<string, unknown>, files: MultipartFile[]): void {
  if (headers.filename !== null) {
    files.push({
      field: headers.name,
      filename: headers.filename,
      contentType: headers.contentType ?? "application/octet-stream",
      size: content.length,
      sha256: new Bun.CryptoHasher("sha256").update(content).digest("hex"),
    });
    return;
  }
  addField(fields, headers.name, fieldValue(headers, content));
}

/** A field part's value: JSON parsed when its type says JSON, else text in its charset (UTF-8 by default). */
function fieldValue(headers: PartHeaders, content: Buffer): unknown {
  const type = headers.contentType?.split(";", 1)[0].trim().toLowerCase() ?? "text/plain";
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(headers.contentType ?? "")?.[1].toLowerCase() ?? "utf-8";
  let text: string;
  try {
    text = new TextDecoder(charset, { fatal: true }).decode(content);
  } catch {
    throw new InvalidMultipart(`part ${JSON.stringify(headers.name)} is not valid ${charset} text`);
  }
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return parseJson(text);
    } catch {
      throw new InvalidMultipart(`part ${JSON.stringify(headers.name)} says it is JSON but does not parse`);
    }
  }
  return text;
}
