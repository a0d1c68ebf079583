import type { Delivery } from "./delivery.ts";
import type { PreparedChecks } from "../checks/prepared.ts";

/**
 * PII Redaction: a copy of the body whose matching fields' values are `"[REDACTED]"`. When the
 * sandbox cannot finish, this throws and nothing is stored: the unredacted body never goes on.
 */
export async function applyRedaction(checks: PreparedChecks, delivery: Delivery): Promise<unknown> {
  return checks.redact ? await checks.redact(delivery.body) : delivery.body;
}
