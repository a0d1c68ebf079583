import type { TriggerCheckStats } from "../checks/pool.ts";
import type { PerTriggerGauge } from "./metrics.ts";

/** The sandbox workers' per-trigger counts as `/metrics` series: a trigger being contained shows here. */
export function checkPoolGauges(stats: Map<string, TriggerCheckStats>): PerTriggerGauge[] {
  const of = (pick: (s: TriggerCheckStats) => number) => Object.fromEntries([...stats].map(([id, s]) => [id, pick(s)]));
  return [
    { name: "inlet_precheck_running", help: "Pre-execution check evaluations running in a sandbox worker.", values: of((s) => s.running) },
    {
      name: "inlet_precheck_waiting",
      help: "Pre-execution check evaluations waiting for a sandbox worker (bounded server-wide by time and count).",
      values: of((s) => s.waiting),
    },
    {
      name: "inlet_precheck_failed_total",
      type: "counter",
      help: "Evaluations that hit the sandbox deadline or memory cap, or whose worker was replaced.",
      values: of((s) => s.failed),
    },
    {
      name: "inlet_precheck_refused_total",
      type: "counter",
      help: "Evaluations refused at once because too many of the trigger's were already waiting (the trigger is contained).",
      values: of((s) => s.refused),
    },
    {
      name: "inlet_precheck_overloaded_total",
      type: "counter",
      help: "Evaluations given up because the server could not keep up (answered 503 with Retry-After).",
      values: of((s) => s.overloaded),
    },
  ];
}
