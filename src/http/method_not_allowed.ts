import { ERRORS } from "../net/answers.ts";
import { edgeRefusal } from "./edge.ts";

/** A route as the router lists it (`app.routes`). */
export interface RouteEntry {
  method: string;
  path: string;
}

/** The order `Allow` lists methods in. */
const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * For a request no route took: the methods its path answers to. A known path asked with another
 * method is then 405 with `Allow` (RFC 9110 §15.5.6), in the shape the webhook path answers it
 * (docs/api.md#answers), instead of a 404 that would say the path does not exist; an unknown path stays
 * 404. A GET route answers HEAD too (the server does). Paths are matched as the router matches
 * them: `:name` is one segment, `*` the rest, one trailing slash allowed.
 *
 * @example
 * ```ts
 * const allowed = allowedMethods([{ method: "GET", path: "/api/triggers" }, { method: "POST", path: "/api/triggers" }]);
 * allowed("/api/triggers"); // ["GET", "HEAD", "POST"]
 * allowed("/nowhere");      // []
 * ```
 */
export function allowedMethods(routes: readonly RouteEntry[]): (path: string) => string[] {
  const patterns = routes
    .filter((route) => route.method.toUpperCase() !== "ALL")
    .map((route) => ({ method: route.method.toUpperCase(), pattern: patternOf(route.path) }));
  return (path) => {
    const methods = new Set<string>();
    for (const { method, pattern } of patterns) {
      if (!pattern.test(path)) continue;
      methods.add(method);
      if (method === "GET") methods.add("HEAD");
    }
    return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  };
}

const rank = (method: string) => {
  const at = ORDER.indexOf(method);
  return at === -1 ? ORDER.length : at;
};

function patternOf(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => (segment === "*" ? ".*" : segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/** 405 `{"error":"method not allowed","request_id":…}` with `Allow` and `X-Request-Id`. */
export function methodNotAllowed(allow: readonly string[]): Response {
  return edgeRefusal(405, ERRORS.method, { Allow: allow.join(", ") });
}
