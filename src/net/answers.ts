/**
 * The server's answers (docs/api.md#answers): the JSON helper every route uses, the webhook
 * path's fixed shapes and error words, and the `Retry-After` of every 503.
 */

const JSON_TYPE = "application/json";

/**
 * `Retry-After` (seconds) of every 503 that says inlet cannot take the request now (the store, or
 * the XML parser, is unavailable): webhook calls, the management API and `/readyz` alike.
 */
export const UNAVAILABLE_RETRY_AFTER = "5";

/** A JSON answer; `undefined` means no body at all (204). The one JSON response helper of the server. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": JSON_TYPE, ...headers } });
}

/** `{"received":true,"request_id":…}` with `X-Request-Id`. */
export function ack(requestId: string, extra: Record<string, string> = {}): Response {
  return jsonResponse(200, { received: true, request_id: requestId }, { "X-Request-Id": requestId, ...extra });
}

/** `{"error":…,"request_id":…}` with `X-Request-Id`. */
export function failure(status: number, error: string, requestId: string, extra: Record<string, string> = {}): Response {
  return jsonResponse(status, { error, request_id: requestId }, { "X-Request-Id": requestId, ...extra });
}

/** `{"error":…,"request_id":…,"details":[…]}`: a refusal whose details the sender needs to fix the payload (schema 422). */
export function failureWithDetails(status: number, error: string, requestId: string, details: Array<{ path: string; message: string }>): Response {
  return jsonResponse(status, { error, request_id: requestId, details }, { "X-Request-Id": requestId });
}

export const ERRORS = {
  auth: "authentication failed",
  forbidden: "forbidden",
  notFound: "not found",
  method: "method not allowed",
  tooLarge: "payload too large",
  invalidJson: "invalid JSON body",
  invalidXml: "invalid XML body",
  invalidText: "invalid text body",
  invalidMultipart: "invalid multipart body",
  timedOutBody: "request timeout",
  schema: "schema validation failed",
  rateLimited: "rate limited",
  timedOut: "workflow timed out",
  workflowFailed: "workflow failed",
  preExecution: "pre-execution check failed",
  unavailable: "unavailable",
  internal: "internal error",
} as const;
