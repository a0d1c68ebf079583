import { expect, test } from "bun:test";
import { InvalidXml, parseXml } from "./parse_xml.ts";
import { ParsedBody } from "./parse.ts";
import { XML_THREAD_BYTES, XmlParserBusy, XmlParserThread } from "./xml_thread.ts";
import type { Verified } from "./authenticate.ts";

/** An XML document of about `bytes` bytes: orders with attributes, text and repeated elements. */
function xmlOf(bytes: number): Uint8Array {
  let text = '<?xml version="1.0"?><orders>';
  for (let i = 0; text.length < bytes; i++) {
    text += `<order id="${i}"><email>ann${i}@example.com</email><amount currency="EUR">${i}.50</amount><item>a</item><item>b</item><toString>kept</toString></order>`;
  }
  return new TextEncoder().encode(`${text}</orders>`);
}

const verifiedWith = (body: Uint8Array, contentType = "application/xml", method = "POST", query = ""): Verified =>
  ({ arrival: { method, query, headers: new Headers({ "content-type": contentType }) }, rawBody: body }) as unknown as Verified;

test("a body parsed on the parser thread is what parseXml gives on the request thread", async () => {
  const thread = new XmlParserThread();
  try {
    const bytes = xmlOf(64 * 1024);
    expect(await thread.parse(bytes)).toEqual(parseXml(bytes) as object);
    const refused = new TextEncoder().encode(`<a>${"x".repeat(20_000)}</b>`);
    const error = (await thread.parse(refused).catch((e) => e)) as InvalidXml;
    expect(error).toBeInstanceOf(InvalidXml);
    expect(error.message).toBe(
      (() => {
        try {
          parseXml(refused);
        } catch (e) {
          return (e as Error).message;
        }
      })()!,
    );
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
  // A GET request's body is its query: an XML body and type sent along are never parsed.
  const get = new ParsedBody(verifiedWith(xmlOf(XML_THREAD_BYTES * 2), "application/xml", "GET", "?a=1"), thread);
  await get.ready();
  expect(sent).toEqual([]);
  expect(small.value()).toHaveProperty("orders");
  expect(get.value()).toEqual({ a: "1" });
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

const realWorker = () => new Worker(new URL("./xml_worker.ts", import.meta.url).href);
const scriptWorker = (source: string) => new Worker(URL.createObjectURL(new Blob([source], { type: "application/javascript" })));

test("a parser thread that dies fails the body it was on; the bodies behind it go to a new one", async () => {
  let spawned = 0;
  const thread = new XmlParserThread({ spawn: () => (spawned++ === 0 ? scriptWorker("self.onmessage = () => { throw new Error('boom'); };") : realWorker()) });
  try {
    const bytes = xmlOf(XML_THREAD_BYTES);
    const [first, second] = await Promise.allSettled([thread.parse(bytes), thread.parse(bytes)]);
    expect(first.status).toBe("rejected");
    expect(String((first as PromiseRejectedResult).reason)).toContain("the XML parser thread failed");
    expect(second).toEqual({ status: "fulfilled", value: parseXml(bytes) });
    expect(spawned).toBe(2);
  } finally {
    thread.close();
  }
});

test("a body the thread does not finish within its deadline is refused as invalid XML; the ones behind it are parsed by a new thread", async () => {
  let spawned = 0;
  const thread = new XmlParserThread({
    spawn: () => (spawned++ === 0 ? scriptWorker("self.onmessage = () => {};") : realWorker()),
    deadlineMs: () => (spawned <= 1 ? 200 : 10_000),
  });
  try {
    const bytes = xmlOf(XML_THREAD_BYTES);
    const [stuck, behind] = await Promise.allSettled([thread.parse(bytes), thread.parse(bytes)]);
    expect((stuck as PromiseRejectedResult).reason).toBeInstanceOf(InvalidXml);
    expect(String((stuck as PromiseRejectedResult).reason.message)).toBe("XML could not be parsed within 0.2 s");
    expect(behind).toEqual({ status: "fulfilled", value: parseXml(bytes) });
  } finally {
    thread.close();
  }
});

test("past the bytes that may wait, a body is refused at once (XmlParserBusy); one alone is always taken", async () => {
  const thread = new XmlParserThread({ maxPendingBytes: 2 * XML_THREAD_BYTES });
  try {
    const bytes = xmlOf(XML_THREAD_BYTES);
    const big = xmlOf(3 * XML_THREAD_BYTES);
    const results = await Promise.allSettled([thread.parse(big), thread.parse(bytes)]);
    expect(results[0].status).toBe("fulfilled");
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(XmlParserBusy);
    expect(await thread.parse(bytes)).toEqual(parseXml(bytes) as object);
  } finally {
    thread.close();
  }
});

test("ready() asked twice sends the body to the parser thread once, even when the thread failed on it", async () => {
  let sent = 0;
  const body = new ParsedBody(verifiedWith(xmlOf(XML_THREAD_BYTES)), { parse: () => (sent++, Promise.reject(new Error("the XML parser thread failed"))) });
  await body.ready();
  await body.ready();
  expect(sent).toBe(1);
});

test("when the parser thread fails on a body otherwise than by refusing it, the request thread parses it after all", async () => {
  const bytes = xmlOf(XML_THREAD_BYTES);
  const body = new ParsedBody(verifiedWith(bytes), { parse: () => Promise.reject(new Error("the XML parser thread failed: out of memory")) });
  await body.ready();
  expect(body.value()).toEqual(parseXml(bytes));
  const busy = new ParsedBody(verifiedWith(bytes), { parse: () => Promise.reject(new XmlParserBusy("full")) });
  await busy.ready();
  expect(() => busy.value()).toThrow(XmlParserBusy);
});

test("a document of very many sibling elements is refused or accepted the same on either thread (no spread of a huge array)", async () => {
  const thread = new XmlParserThread();
  try {
    const bytes = new TextEncoder().encode(`<a>${"<b/>".repeat(600_000)}</a>`);
    const value = (await thread.parse(bytes)) as { a: { b: unknown[] } };
    expect(value.a.b).toHaveLength(600_000);
  } finally {
    thread.close();
  }
});
