import { Elysia } from "elysia";
import { apiRoutes, type ApiDeps } from "./api.ts";
import { errorResponse } from "./errors.ts";
import { healthRoutes } from "./health.ts";
import { allowedMethods, methodNotAllowed } from "./method_not_allowed.ts";

/** What the routed part of the server needs: the management API's deps, health and metrics, and the panel's routes. */
export interface HttpAppDeps {
  api: ApiDeps;
  health: Parameters<typeof healthRoutes>;
  /** The web panel (src/ui), given by the composition root: the panel's client reads the API's schemas, so http does not import ui. */
  panel: Elysia<any, any, any, any, any, any, any>;
}

/**
 * The routed part of the server: the management API under `/api`, health and metrics, the panel.
 * A path that no route takes for its method answers 405 with the methods that path has, else the
 * router's 404 — in the contract's shape either way (docs/api.md).
 */
export function httpApp(deps: HttpAppDeps) {
  // Set once every route is registered (below): which methods a path no route took answers to.
  let allowed: (path: string) => string[] = () => [];
  const app = new Elysia({ name: "inlet" })
    .onError(({ code, error, path }) => {
      const allow = code === "NOT_FOUND" ? allowed(path) : [];
      return allow.length > 0 ? methodNotAllowed(allow) : errorResponse(code, error);
    })
    .use(apiRoutes(deps.api))
    .use(healthRoutes(...deps.health))
    .use(deps.panel);
  allowed = allowedMethods(app.routes);
  return app;
}
