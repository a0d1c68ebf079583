import type { Delivery } from "./delivery.ts";
import type { PreparedChecks } from "../checks/prepared.ts";

/**
 * PII Redaction: a copy of the body whose matching fields' values are `"[REDACTED]"`. When the
 * sandbox cannot finish, this throws and nothing is stored: the unredacted body never goes on.
 */
export async function applyRedaction(checks: PreparedChecks, delivery: Delivery): Promise<unknown> {
  return checks.redact ? await checks.redact(delivery.body) : delivery.body;
}

/**
 * The query's fields under the same patterns: a GET request's query is its body, and a POST's
 * query fields come from the sender too, so `$trigger.query` never keeps what the body would not.
 */
export async function applyQueryRedaction(checks: PreparedChecks, delivery: Delivery): Promise<Delivery["query"]> {
  const { query } = delivery;
  if (!checks.redact || Object.keys(query).length === 0) return query;
  return (await checks.redact(query)) as Delivery["query"];
}
