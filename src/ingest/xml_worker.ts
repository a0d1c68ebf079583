// The XML parser's thread: parses bodies that XmlParserThread (xml_thread.ts) sends it, one at a
// time, off the thread that answers requests. The value goes back as JSON text (every value of a
// parsed document is a string, an object or an array: nothing is lost), which costs the request
// thread a tenth of parsing the XML itself.
import { InvalidXml, parseXml } from "./parse_xml.ts";
import type { XmlAnswer, XmlJob } from "./xml_thread.ts";

declare const self: Worker;

self.onmessage = (event: MessageEvent<XmlJob>) => {
  const { id, bytes } = event.data;
  let answer: XmlAnswer;
  try {
    answer = { id, json: JSON.stringify(parseXml(bytes)) };
  } catch (error) {
    answer = error instanceof InvalidXml ? { id, invalid: error.message } : { id, failed: String((error as Error)?.message ?? error) };
  }
  self.postMessage(answer);
};
