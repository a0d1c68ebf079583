import { describe } from "bun:test";
import { alertsContract } from "./alerts_contract.ts";
import { destinationStatesContract } from "./destination_states_contract.ts";
import type { OpenStore } from "./contract_fixtures.ts";
import { historyContract } from "./history_contract.ts";
import { ingestLogContract } from "./ingest_log_contract.ts";
import { maintenanceContract } from "./maintenance_contract.ts";
import { metaContract } from "./meta_contract.ts";
import { runLeasesContract } from "./run_leases_contract.ts";
import { triggersContract } from "./triggers_contract.ts";

/** The behaviour every Store must have, role by role; run against SQLite (and PostgreSQL where available). */
export function storeContract(name: string, open: OpenStore): void {
  describe(`${name} store`, () => {
    triggersContract(open);
    ingestLogContract(open);
    runLeasesContract(open);
    destinationStatesContract(open);
    historyContract(open);
    alertsContract(open);
    maintenanceContract(open);
    metaContract(open);
  });
}
