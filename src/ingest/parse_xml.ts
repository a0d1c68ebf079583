import { XMLParser, XMLValidator } from "fast-xml-parser";
import { MAX_NESTING_DEPTH } from "../sandbox/depth.ts";

/** XML content types (docs/api.md#xml-bodies): `application/xml`, `text/xml`, `application/*+xml`. */
export function isXmlType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";", 1)[0].trim().toLowerCase();
  return type === "application/xml" || type === "text/xml" || (type.startsWith("application/") && type.endsWith("+xml"));
}

/** At most this many attributes on one element: more is refused, not parsed. */
export const MAX_XML_ATTRIBUTES = 1024;

/** A body that is not well-formed, safe XML: 400 `invalid XML body`, with the reason for Activity. */
export class InvalidXml extends Error {
  override name = "InvalidXml";
  readonly code = "invalid_xml";
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  // Values stay the exact text sent: no number or boolean guessing.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  allowBooleanAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The predefined entities and character references (&#65; &#x41;) are decoded; the library's
  // switch for references also admits HTML's named ones (&nbsp;). Declared entities are refused
  // before parsing, so nothing a sender declares is ever expanded.
  processEntities: true,
  htmlEntities: true,
  maxNestedTags: MAX_NESTING_DEPTH,
  // `toString`, `valueOf`… are kept as the element names they are (own properties are harmless).
  onDangerousProperty: (name: string) => name,
});

/**
 * Parses an XML body into an object so that filters, expression keys and redaction apply:
 * attributes as `@_name`, text beside child elements as `#text`, repeated elements as arrays.
 * Hostile documents are refused, never expanded: any `<!ENTITY` declaration, nesting deeper than
 * 256, more than 1,024 attributes on an element, bytes that are not UTF-8, and element names that
 * an object cannot hold literally (`__proto__`, `constructor`, `prototype`).
 */
export function parseXml(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new InvalidXml("XML body is not valid UTF-8");
  }
  if (/<!ENTITY/i.test(text)) throw new InvalidXml("XML declares entities (<!ENTITY …>): refused, never expanded");
  const wellFormed = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (wellFormed !== true) throw new InvalidXml(`XML is not well-formed: ${wellFormed.err.msg} (line ${wellFormed.err.line}, column ${wellFormed.err.col})`);
  let parsed: unknown;
  try {
    parsed = parser.parse(text);
  } catch (error) {
    throw new InvalidXml(`XML could not be parsed: ${(error as Error).message}`);
  }
  // The validator misses a second root (or text) after a self-closing root: `<a/><b/>`, `<a/>text`.
  const roots = Object.keys(parsed as object);
  if (roots.length !== 1 || Array.isArray((parsed as Record<string, unknown>)[roots[0]]) || !withoutTrailingMisc(text).endsWith(">")) {
    throw new InvalidXml("XML is not well-formed: a document has exactly one root element and nothing but comments after it");
  }
  const crowded = firstCrowded(parsed);
  if (crowded) throw new InvalidXml(`an XML element has ${crowded} attributes; at most ${MAX_XML_ATTRIBUTES} are accepted`);
  return parsed;
}

/** The text without the whitespace, comments and processing instructions that may end a document. */
function withoutTrailingMisc(text: string): string {
  let end = text.trimEnd();
  for (;;) {
    const start = end.endsWith("-->") ? end.lastIndexOf("<!--") : end.endsWith("?>") ? end.lastIndexOf("<?") : -1;
    if (start === -1) return end;
    end = end.slice(0, start).trimEnd();
  }
}

/** The attribute count of the first element with too many, or 0. Iterative: nesting is already bounded. */
function firstCrowded(root: unknown): number {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const values = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) {
      let attributes = 0;
      for (const key of Object.keys(node)) if (key.startsWith("@_")) attributes++;
      if (attributes > MAX_XML_ATTRIBUTES) return attributes;
    }
    // One at a time: a spread of a huge array would overflow the stack.
    for (const value of values) stack.push(value);
  }
  return 0;
}
