/**
 * IP addresses and CIDR ranges (IPv4 and IPv6), parsed into bytes and matched by prefix.
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.7`) is the IPv4 address it maps.
 *
 * @example
 * ```ts
 * const office = parseCidr("192.0.2.0/24");
 * if (office.ok) inRange(parseAddress("::ffff:192.0.2.7")!, office.range); // true
 * ```
 */

export interface IpRange {
  bytes: Uint8Array;
  /** Leading bits that must match. */
  prefix: number;
}

function parseV4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    if (!/^(0|[1-9]\d{0,2})$/.test(parts[i]) || Number(parts[i]) > 255) return null;
    out[i] = Number(parts[i]);
  }
  return out;
}

function parseV6(text: string): Uint8Array | null {
  let head = text;
  let tailV4: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    tailV4 = parseV4(text.slice(lastColon + 1));
    if (!tailV4) return null;
    head = text.slice(0, lastColon + 1) + "0:0";
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const group = (s: string) => (s === "" ? [] : s.split(":"));
  const left = group(halves[0]);
  const right = halves.length === 2 ? group(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...right];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(groups[i])) return null;
    const v = parseInt(groups[i], 16);
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  }
  if (tailV4) out.set(tailV4, 12);
  return out;
}

const isV4Mapped = (b: Uint8Array) => b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** An address as bytes (4 for IPv4, including IPv4-mapped IPv6; 16 for IPv6), or null when it is not one. */
export function parseAddress(text: string): Uint8Array | null {
  const bare = text
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  const bytes = bare.includes(":") ? parseV6(bare) : parseV4(bare);
  if (!bytes) return null;
  return isV4Mapped(bytes) ? bytes.slice(12) : bytes;
}

/** An address or CIDR (`203.0.113.7`, `192.0.2.0/24`, `2001:db8::/32`), or the reason it is not one. */
export function parseCidr(text: string): { ok: true; range: IpRange } | { ok: false; reason: string } {
  const [address, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined) return { ok: false, reason: `${JSON.stringify(text)} has more than one "/"` };
  const bytes = parseAddress(address);
  if (!bytes) return { ok: false, reason: `${JSON.stringify(address)} is not an IPv4 or IPv6 address` };
  const max = bytes.length * 8;
  if (prefixText === undefined) return { ok: true, range: { bytes, prefix: max } };
  // An IPv4-mapped range (`::ffff:192.0.2.0/120`) is written with an IPv6 prefix: 96 to 128.
  const mapped = bytes.length === 4 && address.includes(":") ? 96 : 0;
  const prefix = Number(prefixText) - mapped;
  if (!/^\d{1,3}$/.test(prefixText) || prefix < 0 || prefix > max)
    return { ok: false, reason: `the prefix length of ${JSON.stringify(text)} must be ${mapped} to ${max + mapped}` };
  return { ok: true, range: { bytes, prefix } };
}

/** Whether `address` (bytes from parseAddress) lies in `range`. */
export function inRange(address: Uint8Array, range: IpRange): boolean {
  if (address.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address[i] & mask) !== (range.bytes[i] & mask)) return false;
  }
  return true;
}

/** Parses a list of ranges that was validated already (bad entries are skipped). */
export function rangesOf(list: readonly string[]): IpRange[] {
  return list.flatMap((text) => {
    const parsed = parseCidr(text);
    return parsed.ok ? [parsed.range] : [];
  });
}

export const inAnyRange = (address: Uint8Array, ranges: readonly IpRange[]) => ranges.some((r) => inRange(address, r));
