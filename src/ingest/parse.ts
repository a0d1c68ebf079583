import type { Verified } from "./authenticate.ts";
import { Ending, type Step } from "./ending.ts";
import { asDoubles, ExactNumber } from "../json/index.ts";
import { fieldsOf } from "./literal_fields.ts";
import { parsedByHooks } from "../plugins/json_body.ts";
import { InvalidBody, InvalidText, parseBodyAndText } from "./body_parsers.ts";
import { InvalidXml, isXmlType } from "./parse_xml.ts";
import { InvalidMultipart, TooManyParts, type MultipartFile } from "./parse_multipart.ts";
import { XML_THREAD_BYTES, XmlParserBusy, xmlParserThread, type XmlParserThread } from "./xml_thread.ts";
import { ERRORS, failure } from "../net/answers.ts";

/**
 * A verified request's body, parsed at most once and only when something needs it: event-id and
 * expression dedup keys may read it before the parse stage, and a duplicate is never parsed.
 */
export class ParsedBody {
  private parsed: Parsed | { error: unknown } | null = null;
  private readying: Promise<void> | null = null;

  constructor(
    private readonly verified: Verified,
    private readonly xml: Pick<XmlParserThread, "parse"> = xmlParserThread,
  ) {}

  /**
   * Parses an XML body of XML_THREAD_BYTES or more on the XML parser thread, so that the request
   * thread is not held while it is parsed; value() then has it at once. Every other body is parsed
   * on demand, on the request thread (a dedup key read from an XML body, before this, too). When
   * the parser thread failed otherwise than by refusing the body (or being too busy), value()
   * parses it on the request thread after all.
   */
  ready(): Promise<void> {
    // Once: asked again (before and after the dedup check), a body is not sent to the thread twice.
    return (this.readying ??= this.readyOnce());
  }

  private async readyOnce(): Promise<void> {
    const { arrival, rawBody } = this.verified;
    if (this.parsed || queryIsBody(arrival.method) || rawBody.length < XML_THREAD_BYTES || !isXmlType(arrival.headers.get("content-type"))) return;
    try {
      const value = await this.xml.parse(rawBody);
      this.parsed ??= { value };
    } catch (error) {
      if (error instanceof InvalidXml || error instanceof XmlParserBusy) this.parsed ??= { error };
    }
  }

  /** The parsed body; throws `InvalidBody` when it does not parse under its content type. */
  value(): unknown {
    if (!this.parsed) {
      try {
        this.parsed = this.parseNow();
      } catch (error) {
        this.parsed = { error };
      }
    }
    if ("error" in this.parsed) throw this.parsed.error;
    return this.parsed.value;
  }

  /**
   * The bytes that stand as the body: a GET request's query (docs/processing-order.md#parse: its
   * parameters are its parsed body), else the raw body. What payload-hash dedup hashes.
   */
  bytes(): Uint8Array {
    const { arrival, rawBody } = this.verified;
    return queryIsBody(arrival.method) ? encoder.encode(arrival.query) : rawBody;
  }

  /** A multipart body's file parts (`$trigger.files`); undefined for other bodies. Call after value(). */
  files(): MultipartFile[] | undefined {
    return this.parsed && "value" in this.parsed ? this.parsed.files : undefined;
  }

  /** A parsed JSON body's text as received (see `parseJsonBody`); null for other bodies. */
  jsonText(): string | null {
    return this.parsed && "value" in this.parsed ? (this.parsed.jsonText ?? null) : null;
  }

  /**
   * A parsed JSON body's text when it says nothing its parsed value does not: every object member
   * it writes is one of the value's (a duplicate name would shadow a value that redaction never
   * sees, e.g. `{"u":{"password":"…"},"u":1}`). Null for other bodies, and for such a text.
   */
  jsonTextHidingNothing(): string | null {
    const text = this.jsonText();
    if (text === null) return null;
    const { value, textMembers } = this.parsed as Parsed;
    return textMembers === membersOf(value) ? text : null;
  }

  /**
   * The parsed body as its JSON Schema validates it: a number a double cannot hold (an
   * ExactNumber) as the nearest double, since the validator knows no other numbers; so
   * `9007199254740993` is an `integer`. Copied only when the body holds such numbers.
   */
  valueForSchema(): unknown {
    const value = this.value();
    return (this.parsed as Parsed).exactNumbers ? asDoubles(value) : value;
  }

  /**
   * Stands `value` in for the parsed body: what an app's plugin decoded inside it (`decodeBody`,
   * Pub/Sub's `message.data`), which the schema, filter, redaction and the run then see. The text
   * as received is no longer the body, so jsonText() is null from then on.
   */
  replaceValue(value: unknown): void {
    const files = this.files();
    // Taken as holding exact numbers (a decoded part may): valueForSchema() then copies where it must.
    this.parsed = { value, exactNumbers: 1, ...(files ? { files } : {}) };
  }

  /** The parsed body, or `undefined` when it does not parse (dedup keys then read nothing). */
  valueOrUndefined(): unknown {
    try {
      return this.value();
    } catch {
      return undefined;
    }
  }

  private parseNow(): Parsed {
    const { arrival, rawBody } = this.verified;
    if (queryIsBody(arrival.method)) return { value: fieldsOf(new URLSearchParams(arrival.query)) };
    // An app trigger's hook may have parsed these bytes already (a delivery id in the body).
    return parseBodyAndText(rawBody, arrival.headers.get("content-type"), parsedByHooks(rawBody));
  }
}

/** A parsed body: its value; for JSON, its text as received and how many ExactNumbers it holds. */
type Parsed = { value: unknown; jsonText?: string; exactNumbers?: number; textMembers?: number; files?: MultipartFile[] };

/** Object members in a parsed JSON value, at every depth (an ExactNumber is a number, not an object). */
function membersOf(value: unknown): number {
  if (value === null || typeof value !== "object" || value instanceof ExactNumber) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const item of value) n += membersOf(item);
    return n;
  }
  // for-in, not Object.keys: no array of names per object (a parsed body is a plain object).
  for (const key in value as Record<string, unknown>) n += 1 + membersOf((value as Record<string, unknown>)[key]);
  return n;
}

const encoder = new TextEncoder();

/** A GET request has no body: its query parameters stand as its body (docs/processing-order.md#parse). */
const queryIsBody = (method: string) => method === "GET";

/** Parsing: JSON, XML and multipart content types must parse (400; too many parts 413), forms become fields, other types a string. */
export function parse(body: ParsedBody, requestId: string): Step<{ value: unknown }> {
  try {
    return { value: body.value() };
  } catch (error) {
    if (error instanceof InvalidBody) return Ending.stop("rejected", error.message, failure(400, ERRORS.invalidJson, requestId), { durable: true });
    if (error instanceof InvalidText) return Ending.stop("rejected", error.message, failure(400, ERRORS.invalidText, requestId), { durable: true });
    if (error instanceof InvalidXml) return Ending.stop("rejected", error.message, failure(400, ERRORS.invalidXml, requestId), { durable: true });
    if (error instanceof InvalidMultipart) return Ending.stop("rejected", error.message, failure(400, ERRORS.invalidMultipart, requestId), { durable: true });
    if (error instanceof TooManyParts)
      return Ending.stop("rejected", `multipart body: ${error.message}`, failure(413, ERRORS.tooLarge, requestId), { durable: true });
    throw error;
  }
}
