import { expect, test } from "bun:test";
import { apiRoutes, type ApiDeps } from "./api.ts";
import { ROUTES } from "./openapi.ts";

// The management API's routes and the OpenAPI document are one list: a route registered without
// its entry in ROUTES (or an entry without its route) fails here, not in a user's client.
test("every route under /api is documented in ROUTES, and every entry of ROUTES is a route", () => {
  const registered = apiRoutes({} as ApiDeps)
    .routes.filter((r) => r.path.startsWith("/api"))
    .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`)
    .filter((r) => !r.startsWith("options "));
  const documented = ROUTES.map((r) => `${r.method} ${r.path}`);
  expect([...new Set(registered)].sort()).toEqual([...new Set(documented)].sort());
});
