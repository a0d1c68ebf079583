import type { Delivery } from "./delivery.ts";
import type { PreparedChecks } from "../checks/prepared_checks.ts";

/**
 * The Pre-Execution Filter: `null` when the delivery goes on, else the reason it was filtered
 * out (Include runs only when the expression is true; Exclude skips when it is true).
 */
export async function applyFilter(checks: PreparedChecks, delivery: Delivery): Promise<string | null> {
  if (!checks.passes || (await checks.passes(delivery.body))) return null;
  return filterReason(delivery);
}

/** What the owner reads when the filter skipped a delivery. */
function filterReason(delivery: Delivery): string {
  const { mode } = delivery.trigger.filter;
  return `filter (${mode}) ${mode === "include" ? "did not match" : "matched"}`;
}
