import { inAnyRange, rangesOf, type IpRange } from "../net/cidr.ts";
import { formatAddress } from "../net/client_address.ts";
import { reportsOnly } from "../records/rollout.ts";
import type { Arrival } from "./arrival.ts";
import { Ending } from "./ending.ts";
import { ERRORS, failure } from "../net/answers.ts";
import { sourceReason } from "./source_reason.ts";

const parsed = new WeakMap<readonly string[], IpRange[]>();

/**
 * Who may send (docs/api.md#allowed-sources), first of all: a trigger with allowed sources answers any other
 * address 403 before its body is read or its credential checked, with a `rejected` row naming the
 * address. An unknown caller address (no socket) is refused too: never open by accident.
 * While `sources.mode` is report (README "Report-only rollout"), the request goes on instead and
 * `arrival.reportOnly.sources` says whether it was allowed.
 */
export function checkSource(arrival: Arrival, callerOf: () => Uint8Array | null): Ending | null {
  const sources = arrival.trigger.sources;
  const allow = sources?.allow;
  if (!allow || allow.length === 0) return null;
  // Found only for a trigger that restricts its sources.
  const caller = callerOf();
  let ranges = parsed.get(allow);
  if (!ranges) {
    ranges = rangesOf(allow);
    parsed.set(allow, ranges);
  }
  const allowed = caller !== null && inAnyRange(caller, ranges);
  const address = caller ? formatAddress(caller) : null;
  if (reportsOnly(sources, arrival.now)) {
    arrival.reportOnly.sources = allowed ? { allowed: true } : { allowed: false, address };
    return null;
  }
  return allowed ? null : sourceRefusal(arrival, address);
}

/** The answer to a caller outside the allowed sources: 403, and a `rejected` row naming its address. */
export function sourceRefusal(arrival: Arrival, address: string | null): Ending {
  return Ending.stop("rejected", sourceReason(address), failure(403, ERRORS.forbidden, arrival.requestId));
}
