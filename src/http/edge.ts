import http from "node:http";
import { failure } from "../net/answers.ts";

/**
 * The HTTP edge: what is refused before any route runs, answered in the contract's shape
 * (docs/api.md#edge-refusals) with `X-Request-Id`, instead of a bare status from the HTTP layer.
 *
 * Bun's own parser refuses first what is larger still (see README "What the edge answers"):
 * inlet raises its header limit to {@link PARSER_HEADER_BYTES} so that everything below that
 * reaches this code and gets a JSON answer.
 */

/** A request line longer than this is 414. */
export const MAX_URL_BYTES = 16 * 1024;
/** Headers (names and values together) larger than this are 431. */
export const MAX_HEADER_BYTES = 64 * 1024;
/** The limit Bun's HTTP parser is given (`parserLetsHeadersThrough`), so that inlet itself answers oversized headers. */
export const PARSER_HEADER_BYTES = 2 * 1024 * 1024;

/**
 * Raises Bun's HTTP parser limit on headers (16 KiB unless `--max-http-header-size` says more) to
 * PARSER_HEADER_BYTES before the server listens, however inlet was started (`npm start`,
 * `dist/inlet`, `bun run src/main.ts serve`): headers between 64 KiB and that reach inlet, which
 * answers them with its own JSON 431 (README "Edge").
 */
export function parserLetsHeadersThrough(): void {
  // Read-only in Node's typings; Bun's node:http sets its parser's limit through it.
  if (http.maxHeaderSize < PARSER_HEADER_BYTES) (http as { maxHeaderSize: number }).maxHeaderSize = PARSER_HEADER_BYTES;
}

/**
 * `{"error":…,"request_id":…}` with a fresh `X-Request-Id` and any `extra` headers (`Allow`, or
 * `Connection: close` where the rest of the body is never read): for refusals made before any
 * trigger is known.
 */
export function edgeRefusal(status: number, error: string, extra: Record<string, string> = {}): Response {
  return failure(status, error, crypto.randomUUID(), extra);
}

/** What the edge says, by status, when it refuses a request before routing it. */
export const EDGE_REFUSALS: Readonly<Record<number, string>> = { 414: "uri too long", 431: "request header fields too large" };

/** 414 or 431 for a request too large to route, else null. */
export function refuseOversized(request: Request): Response | null {
  const url = request.url;
  if (url.length > MAX_URL_BYTES) return edgeRefusal(414, EDGE_REFUSALS[414]);
  // Summed over Headers.toJSON() (one native call), not the entries iterator (an array per header).
  const headers = request.headers.toJSON() as Record<string, string | string[]>;
  let size = 0;
  for (const name in headers) {
    const value = headers[name];
    size += typeof value === "string" ? name.length + value.length + 4 : value.reduce((sum, v) => sum + name.length + v.length + 4, 0);
    if (size > MAX_HEADER_BYTES) return edgeRefusal(431, EDGE_REFUSALS[431]);
  }
  return null;
}

/**
 * The request as routed by path alone: the `Host` header plays no part in routing. (Elysia finds
 * the path by skipping a minimum host length, so `Host: x` would shift it; such a request is
 * re-addressed to a neutral origin, body and headers unchanged.)
 */
export function routable(request: Request): Request {
  const url = request.url;
  // Bun gives the bare path as the URL when the Host is no valid host (`Host: a b`).
  if (url.startsWith("/")) return new Request(`http://inlet.local${url}`, request);
  const start = url.indexOf("//");
  const slash = url.indexOf("/", start + 2);
  if (start !== -1 && slash !== -1 && slash - (start + 2) >= 4) return request;
  return new Request(`http://inlet.local${slash === -1 ? "/" : url.slice(slash)}`, request);
}
