import { parseJson, valueAt } from "./json_body.ts";
import type { HandshakeResult, PluginRequest } from "./types.ts";

/** One condition of a declared handshake. `field` is a path into the JSON body. */
export type HandshakeCondition =
  | { header: string; equals: string }
  | { field: string[]; equals: string | number | boolean }
  | { field: string[]; present: boolean };

/** The answer to a declared handshake. */
export type HandshakeReply =
  /** Echo a string field of the body: as `text/plain`, or as JSON `{ [key]: value }`. */
  | { echo: string[]; as: "text" }
  | { echo: string[]; as: "json"; key: string }
  /** A fixed JSON answer (Discord's PONG). */
  | { json: unknown; status?: number }
  /** An empty answer with this status. */
  | { status: number };

/**
 * A URL-verification call described as data, so the host answers it without running plugin
 * code. Declared handshakes are POSTs: the host asks for them only after the request is
 * verified, so the plugin never checks a signature itself.
 */
export interface DeclaredHandshake {
  /** Every condition must hold. */
  when: HandshakeCondition[];
  reply: HandshakeReply;
}

function holds(condition: HandshakeCondition, req: PluginRequest, body: () => unknown): boolean {
  if ("header" in condition) return req.headers.get(condition.header) === condition.equals;
  const value = valueAt(body(), ...condition.field);
  if ("present" in condition) return (value !== undefined) === condition.present;
  return value === condition.equals;
}

function answer(reply: HandshakeReply, body: unknown): Response | null {
  if ("echo" in reply) {
    const value = valueAt(body, ...reply.echo);
    // No string to echo: not this handshake, and the request goes on as an ordinary delivery.
    if (typeof value !== "string") return null;
    return reply.as === "text" ? new Response(value, { status: 200, headers: { "content-type": "text/plain" } }) : Response.json({ [reply.key]: value });
  }
  if ("json" in reply) return Response.json(reply.json, { status: reply.status ?? 200 });
  return new Response(null, { status: reply.status });
}

/**
 * The `handshake()` the host runs for declared handshakes: the first declaration whose
 * conditions all hold answers; other requests (and every GET or HEAD) are not handshakes.
 *
 * @example
 * ```ts
 * const handshake = declaredHandshake([
 *   { when: [{ field: ["type"], equals: "url_verification" }], reply: { echo: ["challenge"], as: "json", key: "challenge" } },
 * ]);
 * await handshake(req); // Response {"challenge":"…"} for Slack's url_verification, else null
 * ```
 */
export function declaredHandshake(declarations: readonly DeclaredHandshake[]): (req: PluginRequest) => HandshakeResult {
  return (req) => {
    if (req.method !== "POST") return null;
    // Parsed at most once, and only if a condition reads the body (parseJson keeps it per request).
    const body = () => parseJson(req.rawBody);
    for (const declaration of declarations) {
      if (declaration.when.every((condition) => holds(condition, req, body))) return answer(declaration.reply, body());
    }
    return null;
  };
}

/**
 * Checks a `handshakes` field as the loader does; returns what is wrong with it (empty: usable).
 *
 * @example
 * ```ts
 * handshakeProblems([{ when: [], reply: { status: 204 } }]);
 * // ["handshakes[0].when must be a non-empty array of conditions"]
 * ```
 */
export function handshakeProblems(value: unknown): string[] {
  if (!Array.isArray(value)) return ["handshakes must be an array of { when, reply }"];
  const problems: string[] = [];
  value.forEach((entry, i) => {
    const d = entry as Partial<DeclaredHandshake> | null;
    if (!d || !Array.isArray(d.when) || d.when.length === 0) problems.push(`handshakes[${i}].when must be a non-empty array of conditions`);
    else {
      for (const c of d.when as Array<Record<string, unknown>>) {
        const header = typeof c?.header === "string" && typeof c.equals === "string";
        const field =
          Array.isArray(c?.field) && (c.field as unknown[]).every((k) => typeof k === "string") && ("equals" in c || typeof c.present === "boolean");
        if (!header && !field) problems.push(`handshakes[${i}].when has a condition that is neither { header, equals } nor { field, equals | present }`);
      }
    }
    const r = d?.reply as Record<string, unknown> | undefined;
    const ok =
      r !== undefined &&
      ((Array.isArray(r.echo) && (r.as === "text" || (r.as === "json" && typeof r.key === "string"))) ||
        "json" in r ||
        (typeof r.status === "number" && Number.isInteger(r.status) && r.status >= 200 && r.status <= 299));
    if (!ok) problems.push(`handshakes[${i}].reply must be { echo, as: "text" }, { echo, as: "json", key }, { json } or { status: 2xx }`);
  });
  return problems;
}
