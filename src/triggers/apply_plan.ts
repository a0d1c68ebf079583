import type { TriggerRecord } from "../records/trigger.ts";
import type { TriggerSettings } from "./normalize.ts";

/**
 * One trigger as a config file wants it (README "Triggers as code"): its settings whole, as the
 * API normalizes them, and what only a file can give.
 */
export interface DesiredSettings {
  settings: TriggerSettings;
  /** Pinned: the URL keeps this token. Absent: generated for a new trigger, kept otherwise. */
  token?: string;
  /** Used instead of a generated secret. Absent: generated, or kept. */
  secret?: string;
  /** An app trigger's provider secret. Absent: kept (or none). */
  appSecret?: string;
}

/** What applying a file does to one trigger (the plan of src/triggers_as_code is one of these). */
export type ApplyStep =
  | { action: "create"; desired: DesiredSettings }
  | { action: "update"; desired: DesiredSettings; current: TriggerRecord }
  | { action: "unchanged"; current: TriggerRecord }
  | { action: "delete"; current: TriggerRecord };

export interface ApplyPlan {
  steps: readonly ApplyStep[];
}

/** The triggers, and the store's revision they were read at: what a plan is made against. */
export interface TriggerSnapshot {
  triggers: TriggerRecord[];
  revision: number;
}
