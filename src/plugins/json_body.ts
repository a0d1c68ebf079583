/**
 * Small, throw-free readers for plugin hooks that look inside a JSON body (event names,
 * handshake shapes, timestamps carried in the body).
 *
 * @module
 */

import { parseJsonCounting, type ExactNumber, type ReadJson } from "../json/index.ts";

const decoder = new TextDecoder();

/**
 * What parseJson gave, per body: the hooks of one request (a delivery id, a timestamp, a
 * handshake read from the body) and the host's own parse of a JSON body share one parse of the
 * same bytes. Keyed by the bytes' object, which is one request's and gone with it (or the one
 * empty array every request without a body shares, which never parses).
 */
const parsedBodies = new WeakMap<Uint8Array, ReadJson | undefined>();

/**
 * Parses the raw body as JSON; `undefined` when it is not JSON. Bytes that are not UTF-8 read as
 * U+FFFD (hooks read names and ids from it; the host has already refused such a JSON body).
 * Parsed once per request, whichever hooks ask: every caller gets the same value, so read it, do
 * not change it (the host stores the body it parses, which may be this one). A number a double
 * cannot hold (an id beyond 2^53, `1e400`) is an {@link ExactNumber}: its `text` (or `String()`)
 * has every digit as sent.
 *
 * @example
 * ```ts
 * parseJson(new TextEncoder().encode('{"type":"ping"}')); // { type: "ping" }
 * ```
 */
export function parseJson(rawBody: Uint8Array): unknown {
  return parsedOnce(rawBody)?.value;
}

function parsedOnce(rawBody: Uint8Array): ReadJson | undefined {
  if (parsedBodies.has(rawBody)) return parsedBodies.get(rawBody);
  let parsed: ReadJson | undefined;
  try {
    parsed = parseJsonCounting(decoder.decode(rawBody));
  } catch {
    parsed = undefined;
  }
  parsedBodies.set(rawBody, parsed);
  return parsed;
}

/**
 * The host's side of that sharing: the value a hook's parseJson already gave for these bytes, or
 * null when no hook parsed them (or they did not parse). Not for plugins.
 */
export function parsedByHooks(rawBody: Uint8Array): ReadJson | null {
  return parsedBodies.get(rawBody) ?? null;
}

/**
 * The value at `path` inside nested objects, or `undefined` when any step is missing (only own
 * fields count: `constructor` or `toString` is never read off a prototype).
 *
 * @example
 * ```ts
 * valueAt({ subscription: { type: "channel.follow" } }, "subscription", "type"); // "channel.follow"
 * ```
 */
export function valueAt(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== "object" || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * The non-empty string at `path`, or `null`.
 *
 * @example
 * ```ts
 * stringAt({ type: "email.sent" }, "type"); // "email.sent"
 * stringAt({ type: 3 }, "type");            // null
 * ```
 */
export function stringAt(value: unknown, ...path: string[]): string | null {
  const found = valueAt(value, ...path);
  return typeof found === "string" && found !== "" ? found : null;
}

/**
 * Distinct non-null names in first-seen order, joined with `,`; `null` when there are none.
 * Used where one delivery batches several events (HubSpot, Asana).
 *
 * @example
 * ```ts
 * distinctJoined(["contact.creation", "contact.creation", "deal.creation"]); // "contact.creation,deal.creation"
 * ```
 */
export function distinctJoined(names: Array<string | null>): string | null {
  const seen: string[] = [];
  for (const name of names) if (name !== null && !seen.includes(name)) seen.push(name);
  return seen.length > 0 ? seen.join(",") : null;
}
