import type { Verified } from "./authenticate.ts";
import { Ending, type Step } from "./ending.ts";
import { fieldsOf } from "./literal_fields.ts";
import { InvalidBody, parseBody } from "./parse_body.ts";
import { InvalidXml } from "./parse_xml.ts";
import { ERRORS, failure } from "./respond.ts";

/**
 * A verified request's body, parsed at most once and only when something needs it: event-id and
 * expression dedup keys may read it before the parse stage, and a duplicate is never parsed.
 */
export class ParsedBody {
  private parsed: { value: unknown } | { error: unknown } | null = null;

  constructor(private readonly verified: Verified) {}

  /** The parsed body; throws `InvalidBody` when it does not parse under its content type. */
  value(): unknown {
    if (!this.parsed) {
      try {
        this.parsed = { value: this.parseNow() };
      } catch (error) {
        this.parsed = { error };
      }
    }
    if ("error" in this.parsed) throw this.parsed.error;
    return this.parsed.value;
  }

  /** The parsed body, or `undefined` when it does not parse (dedup keys then read nothing). */
  valueOrUndefined(): unknown {
    try {
      return this.value();
    } catch {
      return undefined;
    }
  }

  private parseNow(): unknown {
    const { arrival, rawBody } = this.verified;
    // A GET request's query parameters stand as its parsed body (SPEC §Processing order 4).
    if (arrival.method === "GET") return fieldsOf(new URLSearchParams(arrival.query));
    return parseBody(rawBody, arrival.headers.get("content-type"));
  }
}

/** Parsing: JSON and XML content types must parse (400), forms become fields, other types a string. */
export function parse(body: ParsedBody, requestId: string): Step<{ value: unknown }> {
  try {
    return { value: body.value() };
  } catch (error) {
    if (error instanceof InvalidBody) return Ending.stop("rejected", error.message, failure(400, ERRORS.invalidJson, requestId), { durable: true });
    if (error instanceof InvalidXml) return Ending.stop("rejected", error.message, failure(400, ERRORS.invalidXml, requestId), { durable: true });
    throw error;
  }
}
