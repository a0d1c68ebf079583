import type { Arrival } from "./arrival.ts";
import { authRefusal } from "./authenticate.ts";
import type { Ending } from "./ending.ts";
import type { SenderProtocol } from "./sender_protocol.ts";
import { waivedAny, type ReportOnlyMarks } from "./report_only.ts";
import { sourceRefusal } from "./sources.ts";

/**
 * A handshake is never answered to a request that a report-only check let through (README
 * "Report-only rollout"): answering a URL check, or taking a secret from it, is not accepting an
 * event. Such a request, when it is a handshake (or a check-only method, which reaches nothing
 * else), gets the refusal it was spared; null when nothing was waived or it is no handshake.
 */
export async function refuseUnverifiedHandshake(protocol: SenderProtocol, arrival: Arrival, rawBody: Uint8Array): Promise<Ending | null> {
  if (!waivedAny(arrival.reportOnly)) return null;
  // A check-only method (GET/HEAD URL checks) or a method only handshakes answer (OPTIONS) reaches nothing else.
  const checkOnly = protocol.checkOnlyMethods.includes(arrival.method) || protocol.verifiedCheckOnlyMethods.includes(arrival.method);
  return checkOnly || (await isHandshake(protocol, arrival, rawBody)) ? sparedRefusal(arrival, arrival.reportOnly) : null;
}

/** Whether the protocol takes this request for a handshake; asked without answering it or adopting anything. One that throws is refused either way. */
async function isHandshake(protocol: SenderProtocol, arrival: Arrival, rawBody: Uint8Array): Promise<boolean> {
  if (!protocol.handshake) return false;
  try {
    return (await protocol.handshake(arrival, rawBody)) !== null;
  } catch {
    return true;
  }
}

/** The refusal the checks would have given, sources first as in the processing order; the marks forget the waiver, since the request now ends refused. */
function sparedRefusal(arrival: Arrival, marks: ReportOnlyMarks): Ending | null {
  const { sources, auth } = marks;
  delete marks.sources;
  delete marks.auth;
  if (sources?.allowed === false) return sourceRefusal(arrival, sources.address);
  return auth?.verified === false ? authRefusal(arrival, auth.reason) : null;
}
