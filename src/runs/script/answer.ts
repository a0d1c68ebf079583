import type { WorkflowAnswer } from "../types.ts";

const RESPONSE_KEYS = new Set(["status", "headers", "body"]);
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Headers the server owns: framing, and the request id every answer carries. */
const OWNED = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "x-request-id"]);

/** The script's return value does not describe a response. */
export class InvalidAnswer extends Error {
  override name = "InvalidAnswer";
}

/**
 * A script's return value as the HTTP answer. `{ status?, headers?, body? }` describes the
 * response; any other value is the body of a 200. A string body is sent as text, anything else
 * as JSON (unless the script set `Content-Type`).
 *
 * @example
 * ```ts
 * scriptAnswer({ status: 202, body: { ok: true } }); // 202, application/json, {"ok":true}
 * scriptAnswer("hello"); // 200, text/plain, hello
 * ```
 */
export function scriptAnswer(value: unknown): WorkflowAnswer {
  const shaped =
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every((key) => RESPONSE_KEYS.has(key));
  const { status = 200, headers = {}, body } = shaped ? (value as { status?: unknown; headers?: unknown; body?: unknown }) : { body: value };
  if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) {
    throw new InvalidAnswer(`status must be a whole number from 200 to 599, got ${JSON.stringify(status)}`);
  }
  if (headers === null || typeof headers !== "object" || Array.isArray(headers)) throw new InvalidAnswer("headers must be an object of strings");
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (!TOKEN.test(name)) throw new InvalidAnswer(`header name ${JSON.stringify(name)} is not valid`);
    if (typeof raw !== "string" && typeof raw !== "number") throw new InvalidAnswer(`header ${name} must be a string`);
    const text = String(raw);
    if (/[\r\n\0]/.test(text)) throw new InvalidAnswer(`header ${name} contains a line break`);
    if (OWNED.has(name.toLowerCase())) continue;
    out[name] = text;
  }
  const hasType = Object.keys(out).some((name) => name.toLowerCase() === "content-type");
  if (body === undefined || body === null) return { status, headers: out, body: "" };
  if (typeof body === "string") return { status, headers: hasType ? out : { ...out, "Content-Type": "text/plain; charset=utf-8" }, body };
  return { status, headers: hasType ? out : { ...out, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}
