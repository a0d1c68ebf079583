import { expect, test } from "bun:test";
import { InvalidXml, parseXml } from "./parse_xml.ts";
import { ParsedBody } from "./parse.ts";
import { XML_THREAD_BYTES, XmlParserThread } from "./xml_thread.ts";
import type { Verified } from "./authenticate.ts";

/** An XML document of about `bytes` bytes: orders with attributes, text and repeated elements. */
function xmlOf(bytes: number): Uint8Array {
  let text = '<?xml version="1.0"?><orders>';
  for (let i = 0; text.length < bytes; i++) {
    text += `<order id="${i}"><email>ann${i}@example.com</email><amount currency="EUR">${i}.50</amount><item>a</item><item>b</item><toString>kept</toString></order>`;
  }
  return new TextEncoder().encode(`${text}</orders>`);
}

const verifiedWith = (body: Uint8Array, contentType = "application/xml"): Verified =>
  ({ arrival: { method: "POST", query: "", headers: new Headers({ "content-type": contentType }) }, rawBody: body }) as unknown as Verified;

test("a body parsed on the parser thread is what parseXml gives on the request thread", async () => {
  const thread = new XmlParserThread();
  try {
    const bytes = xmlOf(64 * 1024);
    expect(await thread.parse(bytes)).toEqual(parseXml(bytes) as object);
    const refused = new TextEncoder().encode(`<a>${"x".repeat(20_000)}</b>`);
    const error = (await thread.parse(refused).catch((e) => e)) as InvalidXml;
    expect(error).toBeInstanceOf(InvalidXml);
    expect(error.message).toBe((() => { try { parseXml(refused); } catch (e) { return (e as Error).message; } })()!);
  } finally {
    thread.close();
  }
});

test("while a large XML body is parsed, the request thread goes on: ready() leaves the event loop free", async () => {
  const thread = new XmlParserThread();
  try {
    const body = new ParsedBody(verifiedWith(xmlOf(1024 * 1024)), thread);
    const order: string[] = [];
    const parsed = body.ready().then(() => order.push("parsed"));
    setImmediate(() => order.push("loop free"));
    await parsed;
    expect(order).toEqual(["loop free", "parsed"]);
    expect((body.value() as { orders: { order: unknown[] } }).orders.order.length).toBeGreaterThan(1000);
  } finally {
    thread.close();
  }
});

test("small XML, other types and GET requests are not sent to the parser thread", async () => {
  const sent: number[] = [];
  const thread = { parse: async (bytes: Uint8Array) => (sent.push(bytes.length), parseXml(bytes)) };
  const small = new ParsedBody(verifiedWith(xmlOf(XML_THREAD_BYTES - 200)), thread);
  await small.ready();
  const json = new ParsedBody(verifiedWith(new TextEncoder().encode(JSON.stringify({ a: "x".repeat(XML_THREAD_BYTES) })), "application/json"), thread);
  await json.ready();
  expect(sent).toEqual([]);
  expect(small.value()).toHaveProperty("orders");
  const large = new ParsedBody(verifiedWith(xmlOf(XML_THREAD_BYTES)), thread);
  await large.ready();
  expect(sent).toHaveLength(1);
});

test("an XML body the parser thread refuses is refused as on the request thread: value() throws its InvalidXml", async () => {
  const thread = new XmlParserThread();
  try {
    const body = new ParsedBody(verifiedWith(new TextEncoder().encode(`<!DOCTYPE a [<!ENTITY x "y">]><a>${"&x;".repeat(10_000)}</a>`)), thread);
    await body.ready();
    expect(() => body.value()).toThrow(InvalidXml);
    expect(() => body.value()).toThrow("XML declares entities");
  } finally {
    thread.close();
  }
});

test("a parser thread that dies fails what it held; the next body gets a new one", async () => {
  let spawned = 0;
  const crashing = URL.createObjectURL(new Blob(["self.onmessage = () => { throw new Error('boom'); };"], { type: "application/javascript" }));
  const thread = new XmlParserThread(() => (spawned++ === 0 ? new Worker(crashing) : new Worker(new URL("./xml_worker.ts", import.meta.url).href)));
  try {
    const bytes = xmlOf(XML_THREAD_BYTES);
    await expect(thread.parse(bytes)).rejects.toThrow("the XML parser thread failed");
    expect(await thread.parse(bytes)).toEqual(parseXml(bytes) as object);
    expect(spawned).toBe(2);
  } finally {
    thread.close();
  }
});
