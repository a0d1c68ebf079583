import { triggerUrl } from "../records/trigger_url.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { destinationsOf } from "../records/destination.ts";
import { shorthandWorkflow } from "../triggers/deliveries.ts";
import { formatTable } from "./table.ts";

/**
 * `inlet triggers list` for people: one row per trigger, newest first. An app trigger shows its
 * plugin in AUTH (marked when the plugin is not loaded: its URL answers 500 until it is);
 * WORKFLOW is the workflow's kind, or how many destinations a trigger with a list delivers to.
 */
export function triggersTable(triggers: TriggerRecord[], baseUrl: string, pluginLoaded: (id: string) => boolean): string {
  if (triggers.length === 0) return "no triggers yet (create one: inlet triggers create --name NAME)";
  const rows = triggers.map((t) => [
    t.name,
    t.id,
    t.app === null ? t.auth.type : `app ${t.app}${pluginLoaded(t.app) ? "" : " (plugin not loaded)"}`,
    t.methods.join(","),
    workflowColumn(t),
    triggerUrl(baseUrl, t.token),
  ]);
  return formatTable(["NAME", "ID", "AUTH", "METHODS", "WORKFLOW", "URL"], rows);
}

function workflowColumn(trigger: TriggerRecord): string {
  const workflow = shorthandWorkflow(trigger);
  if (workflow) return workflow.kind;
  const count = destinationsOf(trigger).length;
  return `${count} destination${count === 1 ? "" : "s"}`;
}
