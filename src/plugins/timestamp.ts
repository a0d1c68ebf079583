import { rfc3339Seconds } from "./rfc3339.ts";

/**
 * How a provider writes its signed timestamp: unix seconds (`"s"`, most), milliseconds (`"ms"`,
 * HubSpot), either (`"s-or-ms"`, Zoom documents seconds but a millisecond value must not fail
 * every request), or an RFC 3339 date-time (`"rfc3339"`, Twitch).
 */
export type TimestampUnit = "s" | "ms" | "s-or-ms" | "rfc3339";

// Plain digits only: no sign, exponent, fraction or hex, which Number() would otherwise accept.
// 16 digits hold a millisecond clock for millennia while keeping the value a safe integer.
const DIGITS = /^\d{1,16}$/;

/**
 * The timestamp exactly as sent (trimmed), when it is well formed for `unit`; else `null`.
 * Signatures cover this text, so recipes sign over it rather than over a reformatted number.
 *
 * @example
 * ```ts
 * timestampText(" 1700000000 ");            // "1700000000"
 * timestampText("1e9");                     // null
 * timestampText("2023-07-19T14:56:51Z", "rfc3339"); // "2023-07-19T14:56:51Z"
 * ```
 */
export function timestampText(value: string | null | undefined, unit: TimestampUnit = "s"): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (unit === "rfc3339") return rfc3339Seconds(text) === null ? null : text;
  return DIGITS.test(text) ? text : null;
}

/**
 * Parses a signed timestamp into unix seconds (what `timestamp()` returns to the host), or `null`
 * when it is missing or malformed.
 *
 * @example
 * ```ts
 * parseTimestamp("1700000000");           // 1700000000
 * parseTimestamp("1700000000123", "ms");  // 1700000000.123
 * parseTimestamp("1700000000123", "s-or-ms"); // 1700000000.123
 * parseTimestamp("soon");                 // null
 * ```
 */
export function parseTimestamp(value: string | null | undefined, unit: TimestampUnit = "s"): number | null {
  const text = timestampText(value, unit);
  if (text === null) return null;
  if (unit === "rfc3339") return rfc3339Seconds(text);
  const n = Number(text);
  if (unit === "ms") return n / 1000;
  // A seconds clock passes 1e11 in the year 5138; a millisecond one passed it in 1973.
  if (unit === "s-or-ms") return n > 1e11 ? n / 1000 : n;
  return n;
}

/**
 * `now` written the way a provider writes its timestamp, for `sign()`.
 *
 * @example
 * ```ts
 * formatTimestamp(new Date(1700000000123));        // "1700000000"
 * formatTimestamp(new Date(1700000000123), "ms");  // "1700000000123"
 * formatTimestamp(new Date(0), "rfc3339");         // "1970-01-01T00:00:00.000Z"
 * ```
 */
export function formatTimestamp(now: Date, unit: TimestampUnit = "s"): string {
  if (unit === "ms") return String(now.getTime());
  if (unit === "rfc3339") return now.toISOString();
  return String(Math.floor(now.getTime() / 1000));
}
