import { destinationsOf } from "../records/destination.ts";
import { okState, statusOf, type DestinationState, type DestinationStatus } from "../records/destination_state.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import type { DestinationLoad } from "../store/destination_states.ts";
import type { PerTriggerGauge } from "./metrics.ts";

const STATUSES: DestinationStatus[] = ["ok", "open", "half-open", "paused"];

/**
 * `inlet_destination_state{trigger,destination,state}` (1 for the state it is in, 0 for the others)
 * and `inlet_destination_queued{trigger,destination}`, for every destination of every trigger.
 */
export function destinationGauges(triggers: TriggerRecord[], states: DestinationState[], loads: DestinationLoad[]): PerTriggerGauge[] {
  const stateSeries: NonNullable<PerTriggerGauge["series"]> = [];
  const queuedSeries: NonNullable<PerTriggerGauge["series"]> = [];
  for (const trigger of triggers) {
    for (const { name } of destinationsOf(trigger)) {
      const status = statusOf(states.find((s) => s.triggerId === trigger.id && s.destination === name) ?? okState(trigger.id, name));
      for (const state of STATUSES) stateSeries.push({ labels: { trigger: trigger.id, destination: name, state }, value: state === status ? 1 : 0 });
      queuedSeries.push({
        labels: { trigger: trigger.id, destination: name },
        value: loads.find((l) => l.triggerId === trigger.id && l.destination === name)?.queued ?? 0,
      });
    }
  }
  return [
    { name: "inlet_destination_state", help: "1 for the state each destination is in (ok, open, half-open, paused), else 0.", values: {}, series: stateSeries },
    { name: "inlet_destination_queued", help: "Runs of the destination waiting to start.", values: {}, series: queuedSeries },
  ];
}
