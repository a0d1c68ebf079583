import { expect, test } from "bun:test";
import { InvalidXml, isXmlType, MAX_XML_ATTRIBUTES, parseXml } from "./parse_xml.ts";

const xml = (text: string) => new TextEncoder().encode(text);
const refused = (text: string | Uint8Array) => {
  try {
    parseXml(typeof text === "string" ? xml(text) : text);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidXml);
    return (error as Error).message;
  }
  throw new Error("expected the XML to be refused");
};

test("the XML content types", () => {
  for (const t of ["application/xml", "text/xml; charset=utf-8", "application/atom+xml", "Application/SOAP+XML"]) expect(isXmlType(t)).toBe(true);
  for (const t of ["application/json", "text/plain", null, "application/xml-dtd"]) expect(isXmlType(t)).toBe(false);
});

test("elements become fields, attributes @_name, text #text, repeats arrays, values exact text", () => {
  expect(
    parseXml(
      xml(
        '<?xml version="1.0"?><order id="7" paid><email>a@b.c</email><amount>012.50</amount><note lang="en">x &amp; y &#65;</note><item>1</item><item>2</item><toString>t</toString></order>',
      ),
    ),
  ).toEqual({
    order: { "@_id": "7", "@_paid": true, email: "a@b.c", amount: "012.50", note: { "@_lang": "en", "#text": "x & y A" }, item: ["1", "2"], toString: "t" },
  });
});

test("malformed or hostile XML is refused, never expanded", () => {
  expect(refused("<a><b></a>")).toContain("not well-formed");
  expect(refused('<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><lolz>&lol2;</lolz>')).toContain("declares entities");
  expect(refused("<a>".repeat(300) + "</a>".repeat(300))).toContain("could not be parsed");
  expect(refused(`<a ${Array.from({ length: MAX_XML_ATTRIBUTES + 1 }, (_, i) => `x${i}="1"`).join(" ")}/>`)).toContain(`${MAX_XML_ATTRIBUTES + 1} attributes`);
  expect(refused(Uint8Array.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]))).toBe("XML body is not valid UTF-8");
  expect(refused("<a><__proto__>p</__proto__></a>")).toContain("__proto__");
  expect(({} as Record<string, unknown>).p).toBeUndefined();
});
