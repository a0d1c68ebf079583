/**
 * Small, throw-free readers for plugin hooks that look inside a JSON body (event names,
 * handshake shapes, timestamps carried in the body).
 *
 * @module
 */

const decoder = new TextDecoder();

/**
 * What parseJson gave, per body: the hooks of one request (a delivery id, a timestamp, a
 * handshake read from the body) and the host's own parse of a JSON body share one parse of the
 * same bytes. Keyed by the bytes' object, which is one request's and gone with it (or the one
 * empty array every request without a body shares, which never parses).
 */
const parsedBodies = new WeakMap<Uint8Array, unknown>();

/**
 * Parses the raw body as JSON; `undefined` when it is not JSON. Bytes that are not UTF-8 read as
 * U+FFFD (hooks read names and ids from it; the host has already refused such a JSON body).
 * Parsed once per request, whichever hooks ask: every caller gets the same value, so read it, do
 * not change it (the host stores the body it parses, which may be this one).
 *
 * @example
 * ```ts
 * parseJson(new TextEncoder().encode('{"type":"ping"}')); // { type: "ping" }
 * ```
 */
export function parseJson(rawBody: Uint8Array): unknown {
  if (parsedBodies.has(rawBody)) return parsedBodies.get(rawBody);
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(rawBody));
  } catch {
    value = undefined;
  }
  parsedBodies.set(rawBody, value);
  return value;
}

/**
 * The host's side of that sharing: the value a hook's parseJson already gave for these bytes, or
 * null when no hook parsed them (or they did not parse). Not for plugins.
 */
export function parsedByHooks(rawBody: Uint8Array): { value: unknown } | null {
  const value = parsedBodies.get(rawBody);
  return value === undefined ? null : { value };
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
