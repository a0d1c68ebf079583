import type { Arrival } from "./arrival.ts";
import { Ending } from "./ending.ts";
import type { RateLimiter } from "./rate_limit.ts";
import type { SenderProtocol } from "./sender_protocol.ts";
import { ERRORS, failure } from "../net/answers.ts";

/** The method check (405 with `Allow`) and the per-trigger rate limit (429 with `Retry-After`). */
export function admit(protocol: SenderProtocol, arrival: Arrival, limiter: RateLimiter | undefined): Ending | null {
  const { method, requestId } = arrival;
  if (!protocol.methods.includes(method)) {
    const allow = protocol.methods.join(", ");
    return Ending.stop("rejected", `method ${method} not accepted (accepts ${allow})`, failure(405, ERRORS.method, requestId, { Allow: allow }));
  }
  if (limiter) {
    const wait = limiter.take(arrival.trigger.id, arrival.now.getTime());
    if (wait > 0)
      return Ending.stop("rejected", "rate limited", failure(429, ERRORS.rateLimited, requestId, { "Retry-After": String(Math.ceil(wait / 1000)) }));
  }
  return null;
}

/** A check-only method (an app's GET/HEAD) that turned out not to be a URL check: 405. */
export function notAUrlCheck(arrival: Arrival, appName: string): Ending {
  return Ending.stop(
    "rejected",
    `${arrival.method} is only for ${appName}'s URL check, and this request is not one`,
    failure(405, ERRORS.method, arrival.requestId, { Allow: "POST" }),
  );
}
