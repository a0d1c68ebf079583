import { StoreUnavailable, UnknownCursor } from "../store/types.ts";
import { ValidationError } from "../triggers/validation_error.ts";
import { logEvent } from "./request_log.ts";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** Maps what a handler threw to the response callers see; 500s are opaque, the reason goes to the log. */
export function errorResponse(code: unknown, error: unknown): Response {
  if (error instanceof ValidationError) return json(400, { error: error.message, details: error.details });
  if (error instanceof UnknownCursor) return json(400, { error: error.message, details: [{ path: "/before", message: error.message }] });
  if (error instanceof StoreUnavailable) return json(503, { error: "unavailable" }, { "Retry-After": "5" });
  if (code === "NOT_FOUND") return json(404, { error: "not found" });
  if (code === "PARSE") return json(400, { error: "the body could not be parsed", details: [{ path: "", message: "the body could not be parsed" }] });
  logEvent("error", "unhandled error", { error: (error as Error)?.stack ?? String(error) });
  return json(500, { error: "internal error" });
}
