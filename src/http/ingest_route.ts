import { Elysia } from "elysia";
import type { IngestPipeline } from "../ingest/pipeline.ts";
import type { Metrics } from "./metrics.ts";
import type { RequestLog } from "./request_log.ts";

/**
 * `/webhooks/<token>`: the body stays unread by Elysia (`parse: "none"`) because signatures
 * cover the raw bytes; the pipeline reads it with a size bound.
 */
export function ingestRoute(pipeline: IngestPipeline, metrics: Metrics, log: RequestLog) {
  return new Elysia({ name: "inlet-ingest" }).all(
    "/webhooks/:token",
    async ({ request, params }) => {
      const started = performance.now();
      const url = request.url;
      const q = url.indexOf("?");
      const result = await pipeline.handle(request, params.token, q === -1 ? "" : url.slice(q));
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
    },
    { parse: "none" },
  );
}
