import { triggerUrl, type TriggerRecord } from "../records/trigger.ts";
import { formatTable } from "./table.ts";

/**
 * `inlet triggers list` for people: one row per trigger, newest first. An app trigger shows its
 * plugin in AUTH (marked when the plugin is not loaded: its URL answers 500 until it is).
 */
export function triggersTable(triggers: TriggerRecord[], baseUrl: string, pluginLoaded: (id: string) => boolean): string {
  if (triggers.length === 0) return "no triggers yet (create one: inlet triggers create --name NAME)";
  const rows = triggers.map((t) => [
    t.name,
    t.id,
    t.app === null ? t.auth.type : `app ${t.app}${pluginLoaded(t.app) ? "" : " (plugin not loaded)"}`,
    t.methods.join(","),
    t.workflow.kind,
    triggerUrl(baseUrl, t.token),
  ]);
  return formatTable(["NAME", "ID", "AUTH", "METHODS", "WORKFLOW", "URL"], rows);
}
