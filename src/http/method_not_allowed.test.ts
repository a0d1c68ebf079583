import { expect, test } from "bun:test";
import { allowedMethods, methodNotAllowed } from "./method_not_allowed.ts";

const routes = [
  { method: "GET", path: "/api/triggers" },
  { method: "POST", path: "/api/triggers" },
  { method: "DELETE", path: "/api/triggers/:id" },
  { method: "PATCH", path: "/api/triggers/:id" },
  { method: "GET", path: "/api/triggers/:id" },
  { method: "OPTIONS", path: "/api/openapi.json" },
  { method: "GET", path: "/assets/*" },
  { method: "ALL", path: "/anything" },
];

test("a path's methods, as the router matches paths: a segment per :name, the rest for *, one trailing slash", () => {
  const allowed = allowedMethods(routes);
  expect(allowed("/api/triggers")).toEqual(["GET", "HEAD", "POST"]);
  expect(allowed("/api/triggers/")).toEqual(["GET", "HEAD", "POST"]);
  expect(allowed("/api/triggers/019a")).toEqual(["GET", "HEAD", "PATCH", "DELETE"]);
  expect(allowed("/api/triggers/019a/secret")).toEqual([]);
  expect(allowed("/api/openapi.json")).toEqual(["OPTIONS"]);
  expect(allowed("/api/openapiXjson")).toEqual([]); // the dot is literal
  expect(allowed("/assets/app/main.js")).toEqual(["GET", "HEAD"]);
  expect(allowed("/nowhere")).toEqual([]);
  expect(allowed("/anything")).toEqual([]); // a route for every method never leaves a request unrouted
});

test("the 405 is the webhook path's shape, with Allow", async () => {
  const answer = methodNotAllowed(["GET", "HEAD"]);
  expect(answer.status).toBe(405);
  expect(answer.headers.get("allow")).toBe("GET, HEAD");
  const id = answer.headers.get("x-request-id");
  expect(await answer.json()).toEqual({ error: "method not allowed", request_id: id });
});
