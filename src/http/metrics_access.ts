import { sha256Hex } from "../auth/digest.ts";
import { timingSafeEqual } from "../auth/timing_safe_equal.ts";
import { bearerCredential, unauthorized } from "./bearer.ts";

/** Said in the challenge of a refused token: which tokens `/metrics` takes. */
export const METRICS_TOKEN_HINT = "token not accepted for /metrics; send the value of --metrics-token (INLET_METRICS_TOKEN) or the admin token";

/** Who may read `/metrics`: null to serve the request, else the 401 (or 429) to answer it with. */
export type MetricsGuard = (request: Request) => Response | null;

/**
 * Who may read `/metrics`. Without a metrics token, anyone: docs/api.md#metrics lists the endpoint
 * without credentials, and scrapers and acceptance suites read it so. With one, a request must
 * carry it, or the admin token (whose holder reads every trigger through the API anyway), as
 * `Authorization: Bearer`; otherwise the management API's 401 and challenge. The admin token is
 * asked for each time: `inlet admin-token reset` changes it while the server runs. As the admin
 * token is taken here, a refusal counts as a failed admin authentication (`failedAuth`): the
 * management API's 429 once its address has failed too often.
 */
export function metricsGuard(
  metricsToken: string | undefined,
  adminTokenHash: () => string,
  failedAuth: (request: Request) => Response | null = () => null,
): MetricsGuard {
  if (metricsToken === undefined) return () => null;
  const hash = sha256Hex(metricsToken);
  // As tokenMatchesHash does, digests are compared in constant time; the presented token is
  // hashed once for both candidates.
  const accepts = (token: string) => {
    const presented = sha256Hex(token);
    return timingSafeEqual(presented, hash) || timingSafeEqual(presented, adminTokenHash());
  };
  return (request) => {
    const credential = bearerCredential(request, accepts);
    return credential === "accepted" ? null : (failedAuth(request) ?? unauthorized(credential, METRICS_TOKEN_HINT));
  };
}
