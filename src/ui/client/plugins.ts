import { api } from "./api.ts";
import type { Plugin } from "./types.ts";

let cached: Promise<Plugin[]> | null = null;

/** The loaded app-trigger plugins, fetched once per page load, sorted by name. */
export function loadPlugins(): Promise<Plugin[]> {
  cached ??= api<Plugin[]>("GET", "/api/plugins")
    .then((list) => [...list].sort((a, b) => a.name.localeCompare(b.name)))
    .catch((error) => {
      cached = null;
      throw error;
    });
  return cached;
}

export function pluginName(plugins: Plugin[], id: string | null): string {
  if (id === null) return "Webhook";
  return plugins.find((p) => p.id === id)?.name ?? id;
}
