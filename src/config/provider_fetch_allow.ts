/**
 * `--provider-fetch-allow HOST:PORT,…` (README "App webhook triggers"): hosts a plugin may fetch
 * keys and certificates from, over http or https, beside its provider's own — a mirror, or a
 * test double on 127.0.0.1. Kept as `host:port` in the spelling a parsed URL gives, so a URL is
 * matched by plain comparison.
 */

const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)$/;

/** One entry as `hostname:port` (lower-case, IPv6 in brackets), or why it is not one. */
export function parseFetchAllowEntry(entry: string): { ok: true; hostPort: string } | { ok: false; reason: string } {
  const match = /^(.+):(\d{1,5})$/.exec(entry);
  const port = match ? Number(match[2]) : 0;
  if (!match || !HOST.test(match[1]) || port < 1 || port > 65535) {
    return { ok: false, reason: `${JSON.stringify(entry)} is not HOST:PORT (write e.g. 127.0.0.1:9000, mirror.internal:443 or [::1]:9000)` };
  }
  try {
    return { ok: true, hostPort: `${new URL(`http://${match[1]}/`).hostname}:${port}` };
  } catch {
    return { ok: false, reason: `${JSON.stringify(match[1])} is not a host name or address` };
  }
}

/** Every entry of the flag's comma-separated text, as `hostname:port`; throws a TypeError naming the first bad one. */
export function parseFetchAllow(text: string | undefined): string[] {
  const entries: string[] = [];
  for (const entry of (text ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const parsed = parseFetchAllowEntry(entry);
    if (!parsed.ok) throw new TypeError(parsed.reason);
    entries.push(parsed.hostPort);
  }
  return entries;
}
