import { sha256Hex } from "../auth/digest.ts";
import { canonicalJson } from "../dedup/canonical_json.ts";
import type { PreparedChecks } from "../checks/prepared_checks.ts";

/** Longer canonical values are kept as their hash: the key is compared, not read back. */
const MAX_SHOWN = 200;

/**
 * Each run's ordering key (README "Ordering per key"), by destination: its destination's
 * `workflow.orderingKey` evaluated on the redacted body; one node is its canonical JSON value,
 * several the array of their values, none: the run is not ordered (absent). Kept as that text (so
 * an operator can see which key a run waits for), or as `sha256:<hex>` past 200 characters.
 */
export async function orderingKeysOf(checks: PreparedChecks, redactedBody: unknown): Promise<Record<string, string>> {
  if (!checks.orderingKey) return {};
  const out: Record<string, string> = {};
  for (const [destination, values] of Object.entries(await checks.orderingKey(redactedBody))) {
    if (values.length === 0) continue;
    const text = canonicalJson(values.length === 1 ? values[0] : values);
    out[destination] = text.length <= MAX_SHOWN ? text : `sha256:${sha256Hex(text)}`;
  }
  return out;
}
