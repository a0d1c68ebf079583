import { sha256Hex } from "../auth/digest.ts";
import { canonicalJson } from "../dedup/canonical_json.ts";
import type { PreparedChecks } from "./stages.ts";

/**
 * The run's ordering key (CONTRACT §6.2): `workflow.orderingKey` evaluated on the redacted body;
 * one node is its canonical value, several the array of their values, none: the run is not
 * ordered. Stored hashed, like dedup keys.
 */
export async function orderingKeyOf(checks: PreparedChecks, redactedBody: unknown): Promise<string | null> {
  if (!checks.orderingKey) return null;
  const values = await checks.orderingKey(redactedBody);
  if (values.length === 0) return null;
  return sha256Hex(`ordering\u0000${canonicalJson(values.length === 1 ? values[0] : values)}`);
}
