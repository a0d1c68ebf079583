import type { FetchRule } from "./types.ts";

/** A copy without the `g`/`y` flags, whose `lastIndex` would make one test depend on the one before. */
const stateless = (re: RegExp) => (re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, "")) : re);

/** The whole host matches (a pattern written without `^…$` must not let `sns.x.amazonaws.com.evil.test` through). */
function hostMatches(hosts: FetchRule["hosts"], host: string): boolean {
  if (typeof hosts === "function") {
    try {
      return hosts(host) === true;
    } catch {
      return false;
    }
  }
  const match = stateless(hosts).exec(host);
  return match !== null && match.index === 0 && match[0].length === host.length;
}

/** `host:port` as `--provider-fetch-allow` lists it, the scheme's default port filled in. */
export const hostPortOf = (url: URL) => `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;

/** The URL without its query and fragment (a SubscribeURL's token stays out of messages). */
export const shownUrl = (url: URL) => `${url.origin}${url.pathname}`;

/**
 * Why `rule` does not allow fetching `text` (null: it does): https on one of the provider's hosts
 * at the default port, or any `host:port` of `allowed` (`--provider-fetch-allow`) over http or
 * https; either way the path must match `rule.pathPattern`.
 *
 * @example
 * ```ts
 * fetchRuleProblem("http://sns.us-east-1.amazonaws.com/a.pem", { hosts: /^sns\.[a-z0-9-]+\.amazonaws\.com$/, purpose: "certificate" }, new Set());
 * // "certificate: http://sns.us-east-1.amazonaws.com/a.pem is not https (…)"
 * ```
 */
export function fetchRuleProblem(text: string, rule: FetchRule, allowed: ReadonlySet<string>): string | null {
  const what = rule.purpose || "fetch";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `${what}: ${JSON.stringify(text.slice(0, 200))} is not a URL`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `${what}: ${url.protocol} URLs are not fetched (https only)`;
  if (url.username || url.password) return `${what}: a URL with credentials in it is not fetched`;
  if (rule.pathPattern && !stateless(rule.pathPattern).test(url.pathname)) return `${what}: the path of ${shownUrl(url)} does not match ${rule.pathPattern}`;
  if (allowed.has(hostPortOf(url))) return null;
  const elsewhere = `only https URLs on the provider's hosts are fetched, or a host:port of --provider-fetch-allow`;
  if (url.protocol !== "https:") return `${what}: ${shownUrl(url)} is not https (${elsewhere})`;
  if (url.port !== "") return `${what}: ${shownUrl(url)} names port ${url.port} (${elsewhere}, on the default port)`;
  if (!hostMatches(rule.hosts, url.hostname)) return `${what}: ${url.hostname} is not one of the provider's hosts (${elsewhere})`;
  return null;
}
