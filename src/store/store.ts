import type { AlertStore } from "./alert_store.ts";
import type { DestinationStates } from "./destination_states.ts";
import type { History } from "./history.ts";
import type { IngestLog } from "./ingest_log.ts";
import type { Maintenance } from "./maintenance.ts";
import type { MetaStore } from "./meta_store.ts";
import type { RunLeases } from "./run_leases.ts";
import type { TriggerStore } from "./trigger_store.ts";

export type { AlertStore } from "./alert_store.ts";
export type { DestinationLoad, DestinationStates } from "./destination_states.ts";
export type { History, Page } from "./history.ts";
export type { IngestLog } from "./ingest_log.ts";
export { SWEEP_CHUNK, type Maintenance, type SweepCounts } from "./maintenance.ts";
export type { MetaStore } from "./meta_store.ts";
export type { RunLeases } from "./run_leases.ts";
export { sweepInChunks } from "./sweep_in_chunks.ts";
export type { StoredTrigger, TriggerStore, TriggerWatch } from "./trigger_store.ts";
export type { TriggerChanges } from "./trigger_changes.ts";

/**
 * The storage every stage uses; SQLite and PostgreSQL implement it. It is the sum of its roles
 * (docs/store.md "Roles"): each stage takes only the roles it uses, the server holds the whole.
 */
export interface Store extends TriggerStore, IngestLog, RunLeases, DestinationStates, AlertStore, History, MetaStore, Maintenance {}
