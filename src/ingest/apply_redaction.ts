import type { Delivery } from "./delivery.ts";
import type { PreparedChecks } from "../checks/prepared.ts";

/**
 * PII Redaction: the body and the query with every matching field's value `"[REDACTED]"` (copies
 * where something matched; the same objects otherwise). The query's fields come from the sender
 * too (a GET request's query is its body), so `$trigger.query` never keeps what the body would
 * not. Both go through one walk, so new field names cost one sandbox round trip, not two. When the
 * sandbox cannot finish, this throws and nothing is stored: the unredacted body never goes on.
 */
export async function applyRedaction(checks: PreparedChecks, delivery: Delivery): Promise<{ body: unknown; query: Delivery["query"] }> {
  const { body, query } = delivery;
  if (!checks.redact) return { body, query };
  if (Object.keys(query).length === 0) return { body: await checks.redact(body), query };
  // Array indexes are never field names: the pair is redacted exactly as each part alone.
  const [redactedBody, redactedQuery] = (await checks.redact([body, query])) as [unknown, Delivery["query"]];
  return { body: redactedBody, query: redactedQuery };
}
