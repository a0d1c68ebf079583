import type { IngestPipeline } from "../ingest/pipeline.ts";
import type { Metrics } from "./metrics.ts";
import type { RequestLog } from "./request_log.ts";

/** Answers one webhook call: the pipeline, then its metrics and request-log line. */
export type IngestHandler = (request: Request, token: string) => Promise<Response>;

/** A webhook call the HTTP edge refused before it was routed (414, 431): its Activity row, metrics and log line. */
export type EdgeRefusalHandler = (request: Request, token: string, refused: Response, reason: string) => Response;

/** What every webhook call leaves whatever answered it: its metrics and its one request-log line. */
function accountant(metrics: Metrics, log: RequestLog) {
  return (request: Request, triggerId: string | null, outcome: string, response: Response, seconds: number) => {
    metrics.observe(triggerId ?? "unknown", outcome, response.status, seconds);
    log.write({
      requestId: response.headers.get("x-request-id"),
      triggerId,
      method: request.method,
      outcome,
      status: response.status,
      durationMs: Math.round(seconds * 100_000) / 100,
    });
  };
}

export function ingestHandler(pipeline: IngestPipeline, metrics: Metrics, log: RequestLog): IngestHandler {
  const account = accountant(metrics, log);
  return async (request, token) => {
    const started = performance.now();
    const url = request.url;
    const q = url.indexOf("?");
    const result = await pipeline.handle(request, token, q === -1 ? "" : url.slice(q));
    account(request, result.triggerId, result.outcome, result.response, (performance.now() - started) / 1000);
    if (result.authFailure && result.triggerId) metrics.observeAuthFailure(result.triggerId, result.authFailure);
    return result.response;
  };
}

export function edgeRefusalHandler(pipeline: IngestPipeline, metrics: Metrics, log: RequestLog): EdgeRefusalHandler {
  const account = accountant(metrics, log);
  return (request, token, refused, reason) => {
    const triggerId = pipeline.recordEdgeRefusal(token, refused, reason);
    account(request, triggerId, "rejected", refused, 0);
    return refused;
  };
}

/**
 * The token of a `/webhooks/<token>` URL (one path segment, percent-decoded; one trailing slash
 * allowed, as on every other route), else null. The server answers such a call directly, without
 * the router: it is most of the traffic.
 */
export function webhookToken(url: string): string | null {
  // A bare path (Bun's URL for an invalid Host) may hold "://" only in its query.
  const scheme = url.startsWith("/") ? -1 : url.indexOf("://");
  const path = url.indexOf("/", scheme === -1 ? 0 : scheme + 3);
  if (path === -1 || !url.startsWith("/webhooks/", path)) return null;
  const start = path + "/webhooks/".length;
  let end = url.indexOf("?", start);
  if (end === -1) end = url.length;
  const hash = url.indexOf("#", start);
  if (hash !== -1 && hash < end) end = hash;
  if (end > start + 1 && url[end - 1] === "/") end--;
  const segment = url.slice(start, end);
  if (segment.length === 0 || segment.includes("/")) return null;
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
