import { withCacheControl } from "./cache_control.ts";
import { EDGE_REFUSALS, refuseOversized, routable } from "./edge.ts";
import { errorResponse } from "./errors.ts";
import { webhookToken } from "./ingest_route.ts";

export interface FrontDoorDeps {
  /** A webhook call (`/webhooks/<token>`), straight to the pipeline. */
  ingest(request: Request, token: string): Promise<Response>;
  /** A webhook call the edge refused before routing (414, 431): still one Activity row for its trigger. */
  edgeRefused(request: Request, token: string, refused: Response, reason: string): Response | Promise<Response>;
  /** Everything else: the router (`httpApp`). */
  route(request: Request): Response | Promise<Response>;
  /** The request as Bun received it, where the edge re-addressed it (its socket's peer is asked of Bun by the original). */
  readdressed(routed: Request, received: Request): void;
}

/**
 * Every request, from the socket or in process: the edge's refusals, webhook calls straight to
 * the pipeline, the rest through the router. Answers under `/api/` and `/metrics` get their
 * `Cache-Control` here, whatever answered them (a route, the router's 404 or 405, an error).
 */
export function frontDoor(deps: FrontDoorDeps): (request: Request) => Response | Promise<Response> {
  return (request) => {
    const refused = refuseOversized(request);
    if (refused) {
      const token = webhookToken(request.url);
      return token === null ? withCacheControl(request.url, refused) : deps.edgeRefused(request, token, refused, EDGE_REFUSALS[refused.status]);
    }
    const routed = routable(request);
    if (routed !== request) deps.readdressed(routed, request);
    const token = webhookToken(routed.url);
    if (token !== null) return deps.ingest(routed, token).catch((error) => errorResponse("UNKNOWN", error));
    return Promise.resolve(deps.route(routed))
      .catch((error) => errorResponse("UNKNOWN", error))
      .then((response) => withCacheControl(routed.url, response));
  };
}
