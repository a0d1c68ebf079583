import type { IngestPipeline } from "../ingest/pipeline.ts";
import type { Metrics } from "./metrics.ts";
import type { RequestLog } from "./request_log.ts";

/** Answers one webhook call: the pipeline, then its metrics and request-log line. */
export type IngestHandler = (request: Request, token: string) => Promise<Response>;

export function ingestHandler(pipeline: IngestPipeline, metrics: Metrics, log: RequestLog): IngestHandler {
  return async (request, token) => {
    const started = performance.now();
    const url = request.url;
    const q = url.indexOf("?");
    const result = await pipeline.handle(request, token, q === -1 ? "" : url.slice(q));
    const seconds = (performance.now() - started) / 1000;
    const status = result.response.status;
    metrics.observe(result.triggerId ?? "unknown", result.outcome, status, seconds);
    log.write({
      requestId: result.response.headers.get("x-request-id"),
      triggerId: result.triggerId,
      method: request.method,
      outcome: result.outcome,
      status,
      durationMs: Math.round(seconds * 100_000) / 100,
    });
    return result.response;
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

