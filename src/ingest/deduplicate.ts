import type { DedupClaim } from "../records/ingest.ts";
import type { IngestLog } from "../store/ingest_log.ts";
import type { Verified } from "./authenticate.ts";
import { Ending, type Step } from "./ending.ts";
import type { ParsedBody } from "./parse.ts";
import type { SenderProtocol } from "./sender_protocol.ts";
import { duplicateAck } from "./duplicate_ack.ts";

/**
 * Deduplication, before parsing: the protocol names the key (generic strategy, or the app's
 * delivery id / content hash); a key seen within its window ends the request as `deduplicated`.
 * The key itself is committed later, in the same transaction as the request's outcome, so the
 * store decides again atomically (two copies racing past this read still make one run).
 */
export async function deduplicate(
  protocol: SenderProtocol,
  verified: Verified,
  body: ParsedBody,
  store: Pick<IngestLog, "hasDedupKey">,
): Promise<Step<{ claim: DedupClaim | null }>> {
  const claim = await protocol.dedupClaim(verified, body);
  const { trigger, requestId, now } = verified.arrival;
  if (claim && (await store.hasDedupKey(trigger.id, claim.keyHash, now))) {
    return Ending.stop("deduplicated", null, duplicateAck(trigger, requestId), { durable: true });
  }
  return { claim };
}
