import { destinationsOf } from "../records/destination.ts";
import type { TriggerConfig } from "../records/trigger.ts";

/** What a trigger's checks are compiled from: the settings only, never its secrets. */
export type CheckSettings = Pick<TriggerConfig, "filter" | "redaction" | "dedup" | "workflow" | "destinations" | "schema">;

/** The checks a trigger can have. */
export type CheckOp = "passes" | "redact" | "classify" | "select" | "schema" | "orderingKey" | "route";

/** Which checks a trigger's settings call for. */
export function checkOps(s: CheckSettings): CheckOp[] {
  const ops: CheckOp[] = [];
  if (s.filter.enabled && s.filter.expression) ops.push("passes");
  if (s.redaction.enabled && s.redaction.patterns && s.redaction.patterns.length > 0) ops.push("redact");
  if (s.dedup.strategy === "expression" && s.dedup.expression) ops.push("select");
  if (s.schema?.enabled && s.schema.document !== undefined) ops.push("schema");
  const destinations = destinationsOf(s);
  if (destinations.some((d) => "orderingKey" in d.workflow && d.workflow.orderingKey)) ops.push("orderingKey");
  if (destinations.some((d) => d.filter)) ops.push("route");
  return ops;
}
