import type { TriggerRecord } from "../records/trigger.ts";

/**
 * A change through the API, the panel or `inlet triggers` to a trigger a config file manages
 * (README "Triggers as code"): refused, since the next apply of the file would undo it. The API
 * answers 409 `{"error":"managed by config file"}`.
 */
export class ManagedByConfig extends Error {
  override name = "ManagedByConfig";
  readonly code = "managed_by_config";

  constructor() {
    super("managed by config file");
  }
}

/** Throws ManagedByConfig for a trigger a config file manages. */
export function refuseIfManaged(trigger: TriggerRecord): void {
  if (trigger.managedBy === "config") throw new ManagedByConfig();
}
