import { inAnyRange, parseAddress, type IpRange } from "./cidr.ts";

/**
 * The caller's address (docs/api.md#trusted-proxies): the peer's, unless the peer is a trusted proxy; then the
 * rightmost `X-Forwarded-For` entry that is not itself a trusted proxy (entries to its left could
 * be written by anyone). Without trusted proxies `X-Forwarded-For` is ignored, so nobody can
 * spoof an address by sending the header. Null when the peer is unknown.
 */
export function clientAddress(peer: string | null, forwardedFor: string | null, trusted: readonly IpRange[]): Uint8Array | null {
  const peerBytes = peer === null ? null : parseAddress(peer);
  if (!peerBytes || trusted.length === 0 || !inAnyRange(peerBytes, trusted) || !forwardedFor) return peerBytes;
  const hops = forwardedFor
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  let farthest = peerBytes;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i]);
    // A hop that is not an address cannot be trusted to name the client: stop at it.
    if (!hop) return null;
    if (!inAnyRange(hop, trusted)) return hop;
    farthest = hop;
  }
  // Every hop is a trusted proxy: the farthest one is the client (as nginx's real_ip_recursive and
  // Express's `trust proxy` decide), not the proxy that happened to connect.
  return farthest;
}

/** An X-Forwarded-For entry's address; some proxies add the port (`203.0.113.9:4711`, `[2001:db8::1]:4711`). */
function hopAddress(entry: string): Uint8Array | null {
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d{1,5}$/.exec(entry) ?? /^\[([^\]]+)\]:\d{1,5}$/.exec(entry);
  return parseAddress(withPort ? withPort[1] : entry);
}

/** An address as people write it (for Activity). */
export function formatAddress(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups
    .join(":")
    .replace(/(^|:)0(:0)+(:|$)/, "::")
    .replace(/:{3,}/, "::");
}
