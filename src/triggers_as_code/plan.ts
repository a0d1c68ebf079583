import type { ManagedBy, TriggerRecord } from "../records/trigger.ts";
import type { NormalizeContext } from "../triggers/normalize.ts";
import { failure, success, type ConfigError, type ConfigResult } from "./config_error.ts";
import { INPUT_FIELDS, settingsOf } from "./record_settings.ts";
import type { ConfigFile, DesiredTrigger } from "./validate_config.ts";

/** What applying the file does to one trigger. */
export type PlanStep =
  | { action: "create"; name: string; desired: DesiredTrigger }
  | { action: "update"; name: string; fields: string[]; desired: DesiredTrigger; current: TriggerRecord }
  | { action: "unchanged"; name: string; desired: DesiredTrigger; current: TriggerRecord }
  | { action: "delete"; name: string; current: TriggerRecord };

export interface Plan {
  /** The file's triggers in its order, then the triggers to prune by name. */
  steps: PlanStep[];
  /** Whether applying would change anything (`inlet diff` exits 2 then). */
  changes: boolean;
}

/** Who manages a trigger: "config" for one a config file made or took over; null (or, before the field existed, absent) otherwise. */
export const managedBy = (record: TriggerRecord): ManagedBy => record.managedBy ?? null;

/**
 * Which top-level fields applying `desired` would change on `current`: normalized settings
 * compared, a supplied secret, token or appSecret named (`auth.secret`, `token`, `appSecret`)
 * but never shown, and `managedBy` for a trigger the file takes over from the API.
 */
function changedFields(desired: DesiredTrigger, current: TriggerRecord, context: NormalizeContext): string[] {
  const now = settingsOf(current, context);
  const wanted = desired.settings as unknown as Record<string, unknown>;
  const extra = Object.keys({ ...now, ...wanted })
    .filter((field) => !INPUT_FIELDS.includes(field))
    .sort();
  const fields = [...INPUT_FIELDS, ...extra].filter((field) => field !== "name" && !Bun.deepEquals(now[field], wanted[field]));
  if (desired.secret !== undefined && desired.secret !== current.secret) fields.push("auth.secret");
  if (desired.token !== undefined && desired.token !== current.token) fields.push("token");
  if (desired.appSecret !== undefined && desired.appSecret !== current.appSecret) fields.push("appSecret");
  if (managedBy(current) !== "config") fields.push("managedBy");
  return fields;
}

/**
 * The plan (docs/config-file.md#the-plan) of a validated file against the triggers there are now (read only):
 * per trigger of the file create, update (with the fields that change) or unchanged, then with
 * `prune` a delete for each trigger managed by the config that the file no longer names. A
 * trigger made through the API whose name the file uses is updated and becomes managed.
 *
 * Refused here, before anything is written: a name two current triggers share (which one would
 * change?), a different app for an existing trigger (the API refuses that change too), and a
 * pinned token that another trigger keeps. Applying must write the deletions first, and the
 * steps' `desired.settings` whole.
 */
export function planConfig(config: ConfigFile, current: readonly TriggerRecord[], context: NormalizeContext): ConfigResult<Plan> {
  const byName = new Map<string, TriggerRecord[]>();
  for (const record of current) byName.set(record.name, [...(byName.get(record.name) ?? []), record]);
  const named = new Set(config.triggers.map((desired) => desired.name));
  const deleted = config.prune
    ? current.filter((record) => managedBy(record) === "config" && !named.has(record.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    : [];
  const errors: ConfigError[] = [];
  const steps: PlanStep[] = [];
  for (const desired of config.triggers) {
    const matches = byName.get(desired.name) ?? [];
    const problem = (code: ConfigError["code"], path: string | undefined, message: string) =>
      errors.push({ code, trigger: desired.name, ...(path ? { path } : {}), message });
    if (matches.length > 1) {
      problem(
        "ambiguous_name",
        undefined,
        `${matches.length} triggers have this name (ids ${matches.map((r) => r.id).join(", ")}): rename or delete all but one through the API first`,
      );
      continue;
    }
    const existing = matches[0];
    if (desired.token !== undefined) {
      const holder = current.find((record) => record.token === desired.token && record !== existing);
      const keeps = holder && !deleted.includes(holder) && config.triggers.find((d) => d.name === holder.name)?.token === undefined;
      if (holder && keeps) problem("token_taken", "/token", `is the token of the trigger "${holder.name}", which keeps it: pin another one`);
    }
    if (!existing) {
      steps.push({ action: "create", name: desired.name, desired });
      continue;
    }
    if (existing.app !== desired.settings.app) {
      problem(
        "app_changed",
        "/app",
        `a trigger's app cannot be changed (it is ${JSON.stringify(existing.app)}): give the trigger a new name, or delete the old one first`,
      );
      continue;
    }
    const fields = changedFields(desired, existing, context);
    steps.push(
      fields.length > 0
        ? { action: "update", name: desired.name, fields, desired, current: existing }
        : { action: "unchanged", name: desired.name, desired, current: existing },
    );
  }
  for (const record of deleted) steps.push({ action: "delete", name: record.name, current: record });
  if (errors.length > 0) return failure(errors);
  return success({ steps, changes: steps.some((step) => step.action !== "unchanged") });
}

const SIGNS = { create: "+", update: "~", unchanged: "=", delete: "-" } as const;

/** The plan as `inlet apply` and `inlet diff` print it, one line per step: `~ update orders (auth, token)`. */
export function formatPlan(plan: Plan): string[] {
  return plan.steps.map((step) => `${SIGNS[step.action]} ${step.action} ${step.name}${step.action === "update" ? ` (${step.fields.join(", ")})` : ""}`);
}
