/**
 * Reading Pub/Sub's push envelope (docs "Push subscriptions", "Receive messages from push
 * subscriptions"): `{"message":{"data":"<base64>","attributes":{…},"messageId":"…",
 * "publishTime":"…"},"subscription":"projects/…/subscriptions/…"}`. Pub/Sub also writes the
 * snake-case twins (`message_id`, `publish_time`); the camel-case names come first.
 *
 * @module
 */
import { parseJson, stringAt, valueAt } from "../../src/plugins/index.ts";

/** Standard base64, padded, as Pub/Sub writes `message.data` (also the empty string: no data). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The message's id (the same on every redelivery of it), or null. */
export function messageIdOf(rawBody: Uint8Array): string | null {
  const body = parseJson(rawBody);
  return stringAt(body, "message", "messageId") ?? stringAt(body, "message", "message_id");
}

/** The publisher's `eventType` attribute (Cloud Storage notifications set one), or null. */
export const eventTypeOf = (body: unknown): string | null => stringAt(body, "message", "attributes", "eventType");

/**
 * `data` decoded: base64, then the JSON it holds (numbers kept exactly), or its text when it is
 * not JSON; `undefined` when it is not base64 or its bytes are not UTF-8 (binary data stays
 * encoded only).
 *
 * @example
 * ```ts
 * decodeData("eyJvcmRlciI6NDJ9"); // { order: 42 }
 * decodeData("aGVsbG8=");         // "hello"
 * ```
 */
export function decodeData(data: string): unknown {
  if (!BASE64.test(data)) return undefined;
  let bytes: Uint8Array;
  let text: string;
  try {
    bytes = Uint8Array.from(atob(data), (ch) => ch.charCodeAt(0));
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const json = parseJson(bytes);
  return json === undefined ? text : json;
}

/**
 * The push envelope with `message.decoded` beside `message.data` (see {@link decodeData}); any
 * other body as it is. Under redaction the raw `data` is left out once decoded: redaction sees
 * only `decoded`, and the base64 would keep an unredacted copy. A new value; `body` is unchanged.
 */
export function withDecodedData(body: unknown, redacting: boolean): unknown {
  const message = valueAt(body, "message");
  if (!isRecord(body) || !isRecord(message) || typeof message.data !== "string") return body;
  const decoded = decodeData(message.data);
  if (decoded === undefined) return body;
  const { data: _raw, ...rest } = message;
  return { ...body, message: { ...(redacting ? rest : message), decoded } };
}
