import type { PreparedChecks } from "../checks/prepared_checks.ts";
import { applyFilter } from "./apply_filter.ts";
import { applyRedaction, type Redacted } from "./apply_redaction.ts";
import type { Delivery } from "./delivery.ts";

/**
 * Filter, then redaction: the reason the delivery was filtered out (null: it goes on) and the
 * redacted body, query and headers, which a filtered request keeps for replay too. `skipFilter`:
 * a replay past the filter.
 */
export async function screen(checks: PreparedChecks, delivery: Delivery, skipFilter: boolean): Promise<{ filteredOut: string | null } & Redacted> {
  const filteredOut = skipFilter ? null : await applyFilter(checks, delivery);
  return { filteredOut, ...(await applyRedaction(checks, delivery)) };
}
