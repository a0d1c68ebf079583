/**
 * Parses an RFC 3339 date-time such as Twitch's `2023-07-19T14:56:51.616329898Z` (nanoseconds)
 * into unix seconds; `null` when it is not one. `Date.parse` is not relied on: engines differ on
 * fractions longer than milliseconds.
 *
 * @example
 * ```ts
 * rfc3339Seconds("1970-01-01T00:00:01.5Z"); // 1.5
 * ```
 */
export function rfc3339Seconds(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/.exec(value);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, fraction, , sign, oh, om] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return null;
  const ms = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s));
  const offset = sign === undefined ? 0 : (sign === "-" ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
  return ms / 1000 + (fraction === undefined ? 0 : Number(`0${fraction}`)) - offset;
}
