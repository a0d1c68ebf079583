import type { Arrival } from "./arrival.ts";
import { Ending } from "./ending.ts";
import { recordRejected, type RecordDeps } from "./record.ts";
import { ERRORS, failureWithDetails } from "../net/answers.ts";
import { duplicateAck } from "./duplicate_ack.ts";
import type { PreparedChecks } from "../checks/prepared_checks.ts";
import type { DedupClaim } from "../records/ingest.ts";
import { noted, reportOnlyNote } from "./report_only.ts";

/**
 * The trigger's JSON Schema (docs/api.md#json-schema), after parsing and before the filter: a body that
 * does not conform gets 422 with at most 20 details (the sender needs them to fix the payload)
 * and a `rejected` Activity row, committed with the request's dedup key so that a provider's
 * retry of the same delivery is deduplicated. `null`: the body conforms (or no schema is set).
 * The row of a request a report-only check let through starts with what it failed.
 */
export async function checkSchema(checks: PreparedChecks, arrival: Arrival, body: unknown, claim: DedupClaim | null, deps: RecordDeps): Promise<Ending | null> {
  if (!checks.schema) return null;
  const details = await checks.schema(body);
  if (details.length === 0) return null;
  const { trigger, requestId } = arrival;
  const first = details[0];
  const reason = `schema: ${details.length === 1 ? "" : `${details.length} problems, first `}${first.path || "the body"} ${first.message}`;
  const duplicate = await recordRejected(deps, arrival, claim, noted(reportOnlyNote(arrival.reportOnly), reason));
  if (duplicate) return Ending.committed("deduplicated", duplicateAck(trigger, requestId));
  return Ending.committed("rejected", failureWithDetails(422, ERRORS.schema, requestId, details));
}
