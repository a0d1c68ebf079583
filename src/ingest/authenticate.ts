import { reportsOnly } from "../records/rollout.ts";
import type { Arrival } from "./arrival.ts";
import { Ending, type Step } from "./ending.ts";
import type { SenderProtocol } from "./sender_protocol.ts";
import { ERRORS, failure } from "../net/answers.ts";

declare const verifiedBrand: unique symbol;

/**
 * A request whose credential was checked: only {@link authenticateRequest} makes one, so a stage
 * that takes a `Verified` cannot be reached by a request that skipped the check. It passed, or
 * its trigger's authentication only reports (then `$trigger.auth` says which).
 */
export interface Verified {
  readonly [verifiedBrand]: true;
  readonly arrival: Arrival;
  readonly headers: Headers;
  /** The body exactly as received and as signed. */
  readonly rawBody: Uint8Array;
}

/**
 * Authentication: the protocol checks the credential over the raw bytes, before anything is parsed
 * or stored. Every failure is the same 401; the reason goes to the owner's Activity row. While
 * `auth.mode` is report (README "Report-only rollout") a failure goes on instead, and
 * `arrival.reportOnly.auth` records the outcome, verified or not.
 */
export async function authenticateRequest(protocol: SenderProtocol, arrival: Arrival, rawBody: Uint8Array): Promise<Step<Verified>> {
  const result = await protocol.authenticate(arrival, rawBody);
  if (reportsOnly(arrival.trigger.auth, arrival.now)) arrival.reportOnly.auth = result.ok ? { verified: true } : { verified: false, reason: result.reason };
  else if (!result.ok) return authRefusal(arrival, result.reason);
  return { arrival, headers: arrival.headers, rawBody } as Verified;
}

/** The uniform 401, with `reason` for the owner's `auth_failed` row. */
export function authRefusal(arrival: Arrival, reason: string): Ending {
  return Ending.stop("auth_failed", reason, failure(401, ERRORS.auth, arrival.requestId));
}
