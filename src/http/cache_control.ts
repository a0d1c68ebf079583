/**
 * Answers no cache may keep: the management API's (triggers, their secrets, stored payloads) and
 * `/metrics` (every trigger's traffic), whatever their status (README "Files and caching").
 */

/** The path of a request URL: absolute, or the bare path Bun gives for a request without a valid Host. */
function pathOf(url: string): string {
  const scheme = url.startsWith("/") ? -1 : url.indexOf("://");
  const start = url.indexOf("/", scheme === -1 ? 0 : scheme + 3);
  if (start === -1) return "/";
  let end = url.length;
  for (const mark of ["?", "#"]) {
    const at = url.indexOf(mark, start);
    if (at !== -1 && at < end) end = at;
  }
  return url.slice(start, end);
}

/**
 * Whether the answer to a request for `url` must not be stored by any cache: `/api` and everything
 * under it, and `/metrics` (with or without a trailing slash, as the router takes it).
 *
 * @example
 * noStoreFor("http://127.0.0.1:8080/api/triggers?limit=5") // true
 * noStoreFor("http://127.0.0.1:8080/metrics") // true
 * noStoreFor("http://127.0.0.1:8080/healthz") // false
 */
export function noStoreFor(url: string): boolean {
  const path = pathOf(url);
  return path === "/api" || path.startsWith("/api/") || path === "/metrics" || path === "/metrics/";
}

/** `response` with `Cache-Control: no-store` when it answers a request for `url` that {@link noStoreFor} names. */
export function withCacheControl(url: string, response: Response): Response {
  if (noStoreFor(url)) response.headers.set("Cache-Control", "no-store");
  return response;
}
