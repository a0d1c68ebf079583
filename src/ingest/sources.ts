import { inAnyRange, rangesOf, type IpRange } from "../net/cidr.ts";
import { formatAddress } from "../net/client_address.ts";
import type { Arrival } from "./arrival.ts";
import { Ending } from "./ending.ts";
import { ERRORS, failure } from "./respond.ts";

const parsed = new WeakMap<readonly string[], IpRange[]>();

/**
 * Who may send (CONTRACT §6.4), first of all: a trigger with allowed sources answers any other
 * address 403 before its body is read or its credential checked, with a `rejected` row naming the
 * address. An unknown caller address (no socket) is refused too: never open by accident.
 */
export function checkSource(arrival: Arrival, callerOf: () => Uint8Array | null): Ending | null {
  const allow = arrival.trigger.sources?.allow;
  if (!allow || allow.length === 0) return null;
  // Found only for a trigger that restricts its sources.
  const caller = callerOf();
  let ranges = parsed.get(allow);
  if (!ranges) {
    ranges = rangesOf(allow);
    parsed.set(allow, ranges);
  }
  if (caller && inAnyRange(caller, ranges)) return null;
  const why = caller
    ? `source address ${formatAddress(caller)} is not in the trigger's allowed sources`
    : "source address unknown (no peer address, or an X-Forwarded-For entry that is not an IP address): the trigger allows only listed sources";
  return Ending.stop("rejected", why, failure(403, ERRORS.forbidden, arrival.requestId));
}
