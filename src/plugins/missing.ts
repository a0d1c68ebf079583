import type { TriggerRecord } from "../records/trigger.ts";

/**
 * One warning per app trigger whose plugin is not loaded here: such a trigger answers every
 * request with a 500 until the plugin is, so the start says so instead of leaving it to the log.
 *
 * @example
 * missingPluginWarnings([{ id: "t1", name: "orders", app: "acme" }], (id) => id === "github", undefined)
 * // ['trigger "orders" (t1) uses plugin "acme", which is not loaded: …']
 */
export function missingPluginWarnings(
  triggers: Iterable<Pick<TriggerRecord, "id" | "name" | "app">>,
  loaded: (id: string) => boolean,
  pluginsDir: string | undefined,
): string[] {
  const lines: string[] = [];
  for (const t of triggers) {
    if (t.app === null || loaded(t.app)) continue;
    const fix = pluginsDir ? `add ${t.app}.ts to ${pluginsDir} and restart` : `start with --plugins-dir DIR holding ${t.app}.ts`;
    lines.push(
      `trigger ${JSON.stringify(t.name)} (${t.id}) uses plugin ${JSON.stringify(t.app)}, which is not loaded: its URL answers 500 until it is (${fix})`,
    );
  }
  return lines;
}
