import { jsonResponse } from "../net/answers.ts";

/** What a request's `Authorization` header holds, measured against the token(s) a route takes. */
export type BearerCredential = "accepted" | "wrong token" | "no token";

/**
 * Whether a request carries a token `accepts` takes as `Authorization: Bearer <token>`:
 * "accepted", "wrong token" (a bearer token it refuses), or "no token" (no header, or another
 * scheme). The scheme name is case-insensitive (RFC 9110 §11.1): `bearer <token>` is the same.
 */
export function bearerCredential(request: Request, accepts: (token: string) => boolean): BearerCredential {
  const header = request.headers.get("authorization") ?? "";
  const bearer = /^bearer +/i.exec(header);
  if (bearer === null) return "no token";
  return accepts(header.slice(bearer[0].length)) ? "accepted" : "wrong token";
}

/**
 * The 401 for a refused credential: the management API's body (docs/api.md#admin-authentication)
 * and a Bearer challenge that says how to get in (RFC 6750 §3): for a wrong token,
 * `error="invalid_token"` with `hint` as its description (a quoted string: no `"` or `\` in it).
 */
export function unauthorized(credential: Exclude<BearerCredential, "accepted">, hint: string): Response {
  const challenge = credential === "wrong token" ? `, error="invalid_token", error_description="${hint}"` : "";
  return jsonResponse(401, { error: "unauthorized" }, { "WWW-Authenticate": `Bearer realm="inlet"${challenge}` });
}
