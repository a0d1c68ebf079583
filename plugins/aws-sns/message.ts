/**
 * An SNS message as SNS posts it to an HTTP/S subscription (AWS "HTTP/HTTPS notification JSON
 * format" and the two confirmation formats), and the string AWS signs of it.
 */
import { parseJson } from "../../src/plugins/index.ts";

/** The three kinds of message SNS posts to an HTTP/S endpoint (`Type`, and `x-amz-sns-message-type`). */
export type SnsMessageType = "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";

/**
 * The fields AWS signs, per message type, in byte order ("Verifying the signatures of Amazon SNS
 * messages"); a Notification's `Subject` only when it has one.
 */
const SIGNED_FIELDS: Record<SnsMessageType, readonly string[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

/** A body that is an SNS message: a JSON object with a known `Type`; its fields as sent. */
export type SnsMessage = Record<string, unknown> & { Type: SnsMessageType };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Whether `value` is an SNS message (an object whose `Type` is one SNS posts). */
export function isSnsMessage(value: unknown): value is SnsMessage {
  return isObject(value) && typeof value.Type === "string" && Object.hasOwn(SIGNED_FIELDS, value.Type);
}

/** The request's body as an SNS message (one parse per request, shared by the hooks), or null. */
export function snsMessageOf(rawBody: Uint8Array): SnsMessage | null {
  const body = parseJson(rawBody);
  return isSnsMessage(body) ? body : null;
}

/** The field as a string, or null when it is missing or not a string. */
export const textField = (message: Record<string, unknown>, name: string): string | null =>
  typeof message[name] === "string" ? (message[name] as string) : null;

/** The signed fields `message` lacks (or has as something other than a string). */
export function missingSignedFields(message: SnsMessage): string[] {
  return SIGNED_FIELDS[message.Type].filter((name) => !(name === "Subject" && isAbsent(message.Subject)) && textField(message, name) === null);
}

// SNS leaves Subject out when none was published; null is taken as the same.
const isAbsent = (value: unknown) => value === undefined || value === null;

/**
 * The string AWS signs: each signed field's name and value (as parsed, escapes undone), each on
 * its own line, in byte order; null when a signed field is missing.
 *
 * @example
 * ```ts
 * stringToSign({ Type: "Notification", MessageId: "m1", TopicArn: "arn:aws:sns:us-east-1:123456789012:t", Message: "hi", Timestamp: "2025-06-15T15:06:40.000Z" });
 * // "Message\nhi\nMessageId\nm1\nTimestamp\n2025-06-15T15:06:40.000Z\nTopicArn\narn:aws:sns:us-east-1:123456789012:t\nType\nNotification\n"
 * ```
 */
export function stringToSign(message: SnsMessage): string | null {
  if (missingSignedFields(message).length > 0) return null;
  let text = "";
  for (const name of SIGNED_FIELDS[message.Type]) {
    if (name === "Subject" && isAbsent(message.Subject)) continue;
    text += `${name}\n${message[name] as string}\n`;
  }
  return text;
}
