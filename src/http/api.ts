import { Elysia } from "elysia";
import { ADMIN_TOKEN_HINT } from "../auth/admin_token.ts";
import { tokenMatchesHash } from "../auth/token_hash.ts";
import { jsonResponse } from "../net/answers.ts";
import { activityRoutes } from "./api/activity.ts";
import { alertRoutes } from "./api/alerts.ts";
import { checkRoutes } from "./api/check.ts";
import { transformRoutes } from "./api/transform.ts";
import { destinationRoutes } from "./api/destinations.ts";
import type { ApiDeps } from "./api/deps.ts";
import { pluginRoutes } from "./api/plugins.ts";
import { replayRoutes } from "./api/replay.ts";
import { runRoutes } from "./api/runs.ts";
import { triggerActionRoutes } from "./api/trigger_actions.ts";
import { triggerRoutes } from "./api/triggers.ts";
import { bearerCredential, unauthorized } from "./bearer.ts";
import { openApiDocument } from "./openapi.ts";

export type { ApiDeps } from "./api/deps.ts";
export { presentActivity } from "./api/activity.ts";

/**
 * An API viewer on another origin asks first whether it may send the admin token (a CORS
 * preflight never carries it): yes, for the document only.
 */
const openApiPreflight = () =>
  new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET",
      "Access-Control-Allow-Headers": "Authorization",
      "Access-Control-Max-Age": "600",
    },
  });

/** The answer to a call without the admin token (401, or 429 once its address has failed too often), or undefined to go on. */
function adminTokenRefusal(deps: ApiDeps, request: Request): Response | undefined {
  const credential = bearerCredential(request, (token) => tokenMatchesHash(token, deps.adminTokenHash()));
  if (credential !== "accepted") return deps.failedAuth?.(request) ?? unauthorized(credential, ADMIN_TOKEN_HINT);
}

/**
 * The management API (docs/api.md), behind the admin token: one plugin per resource, each
 * registered after the token check so that it guards every one of them.
 */
export function apiRoutes(deps: ApiDeps) {
  return (
    new Elysia({ name: "inlet-api", prefix: "/api" })
      // The preflight is registered before the token check: it never carries the token.
      .options("/openapi.json", openApiPreflight)
      .onBeforeHandle(({ request }) => adminTokenRefusal(deps, request))
      // API viewers on another origin may load it (with the admin token).
      .get("/openapi.json", () => jsonResponse(200, openApiDocument(deps.baseUrl()), { "Access-Control-Allow-Origin": "*" }))
      .use(triggerRoutes(deps))
      .use(activityRoutes(deps))
      .use(runRoutes(deps))
      .use(triggerActionRoutes(deps))
      .use(replayRoutes(deps))
      .use(alertRoutes(deps))
      .use(pluginRoutes(deps))
      .use(checkRoutes(deps))
      .use(transformRoutes(deps))
      .use(destinationRoutes(deps))
  );
}
