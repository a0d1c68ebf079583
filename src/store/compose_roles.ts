import type { AlertStore } from "./alert_store.ts";
import type { DestinationStates } from "./destination_states.ts";
import type { History } from "./history.ts";
import type { IngestLog } from "./ingest_log.ts";
import type { Maintenance } from "./maintenance.ts";
import type { MetaStore } from "./meta_store.ts";
import type { RunLeases } from "./run_leases.ts";
import type { TriggerStore } from "./trigger_store.ts";

/** A store's role modules (docs/store.md "Roles"), one per role. */
export interface StoreRoles {
  triggers: TriggerStore;
  ingest: IngestLog;
  leases: RunLeases;
  destinations: DestinationStates;
  alerts: AlertStore;
  history: History;
  meta: MetaStore;
  maintenance: Omit<Maintenance, "kind">;
}

/** Each role's operations by name: what a store composed of role modules forwards to each. */
const OPERATIONS = {
  triggers: ["listTriggers", "getTrigger", "insertTrigger", "updateTrigger", "deleteTrigger", "applyTriggers", "triggersRevision", "watchTriggers"],
  ingest: ["hasDedupKey", "commitIngest", "recordActivity", "countActivity"],
  leases: ["claimRuns", "claimRun", "renewLeases", "recordAttempt", "finishRun", "releaseRuns", "requeueAbandonedRuns"],
  destinations: ["destinationStates", "allDestinationStates", "setPaused", "recordDelivery", "destinationLoads"],
  alerts: ["measureAlert", "listAlerts", "transitionAlert", "dropAlerts", "claimAlertNotifications", "settleAlertNotification"],
  history: ["listActivity", "getActivity", "listRuns", "getRun", "runsWaitingOnKey", "countReplayable", "listReplayable"],
  meta: ["getMeta", "setMeta", "setMetaIfAbsent"],
  maintenance: ["ping", "beginServing", "memoryGauges", "sweep", "close"],
} as const satisfies { [R in keyof StoreRoles]: ReadonlyArray<keyof StoreRoles[R]> };

/** A role operation missing from OPERATIONS fails to compile here (so no operation is silently not forwarded). */
type Unlisted<R extends keyof StoreRoles> = Exclude<keyof StoreRoles[R], (typeof OPERATIONS)[R][number]>;
const EVERY_OPERATION_LISTED: { [R in keyof StoreRoles]: [Unlisted<R>] extends [never] ? true : Unlisted<R> } = {
  triggers: true,
  ingest: true,
  leases: true,
  destinations: true,
  alerts: true,
  history: true,
  meta: true,
  maintenance: true,
};
void EVERY_OPERATION_LISTED;

/**
 * Every operation of every role as a method bound to its role module, to be assigned to a store
 * object (`Object.assign(this, composeRoles(…))`): one way for both stores to be the sum of their
 * roles, with no forwarding method written by hand. An optional operation a module lacks
 * (`watchTriggers`, `beginServing`, `memoryGauges`) stays absent.
 */
export function composeRoles(roles: StoreRoles): Record<string, (...args: never[]) => unknown> {
  const out: Record<string, (...args: never[]) => unknown> = {};
  for (const role of Object.keys(OPERATIONS) as Array<keyof StoreRoles>) {
    const module = roles[role] as unknown as Record<string, unknown>;
    for (const name of OPERATIONS[role]) {
      const operation = module[name];
      if (typeof operation === "function") out[name] = operation.bind(module) as (...args: never[]) => unknown;
    }
  }
  return out;
}
