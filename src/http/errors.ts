import { StoreUnavailable, UnknownCursor } from "../store/errors.ts";
import { ManagedByConfig } from "../triggers/managed_by_config.ts";
import { ValidationError } from "../triggers/validation_error.ts";
import { BodyTooLarge } from "../net/limited_body.ts";
import { ERRORS, jsonResponse, UNAVAILABLE_RETRY_AFTER } from "../net/answers.ts";
import { edgeRefusal } from "./edge.ts";
import { logEvent } from "./request_log.ts";

const json = jsonResponse;

/** Something to log for any thrown value: never an empty string. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack || error.message || error.name || "an Error without a message";
  const text = String(error);
  return text === "" ? `a thrown ${error === "" ? "empty string" : typeof error} without a message` : text;
}

/** Maps what a handler threw to the response callers see; 500s are opaque, the reason goes to the log. */
export function errorResponse(code: unknown, error: unknown): Response {
  if (error instanceof ValidationError) return json(400, { error: error.message, details: error.details });
  if (error instanceof ManagedByConfig) return json(409, { error: error.message });
  if (error instanceof UnknownCursor) return json(400, { error: error.message, details: [{ path: "/before", message: error.message }] });
  // The rest of the body is never read: the connection cannot carry another request.
  if (error instanceof BodyTooLarge) return edgeRefusal(413, ERRORS.tooLarge, { Connection: "close" });
  if (error instanceof StoreUnavailable) return json(503, { error: "unavailable" }, { "Retry-After": UNAVAILABLE_RETRY_AFTER });
  if (code === "NOT_FOUND") return edgeRefusal(404, ERRORS.notFound);
  if (code === "PARSE") return json(400, { error: "the body could not be parsed", details: [{ path: "", message: "the body could not be parsed" }] });
  logEvent("error", "unhandled error", { error: describeError(error) });
  return json(500, { error: "internal error" });
}
