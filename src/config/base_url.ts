/**
 * Whether a base URL names this machine only (loopback, `localhost`, a wildcard address), so
 * that trigger URLs built from it cannot be called from anywhere else.
 *
 * @example
 * localOnly("http://127.0.0.1:8080") // true
 * localOnly("https://hooks.example.com") // false
 */
export function localOnly(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "0.0.0.0" ||
    host === "::1" ||
    host === "::" ||
    host === "::ffff:7f00:1"
  );
}

/** The start-up note for a base URL that only this machine can call; null when others can. */
export function localOnlyNote(baseUrl: string, explicit: boolean): string | null {
  if (explicit || !localOnly(baseUrl)) return null;
  return (
    `note: trigger URLs and curl commands use ${baseUrl}, which only this machine can call; ` +
    "set INLET_BASE_URL (or --base-url) to the address senders use, e.g. https://hooks.example.com"
  );
}
