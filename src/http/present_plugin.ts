import { settingDefault } from "../plugins/app_settings.ts";
import type { InletPlugin } from "../plugins/types.ts";

/**
 * A plugin as `GET /api/plugins` lists it: what the panel needs to choose it and render its
 * triggers' settings (by label, with their defaults); `settings` only where it declares some.
 */
export function presentPlugin(plugin: InletPlugin) {
  const settings = (plugin.settings ?? []).map((s) => ({
    key: s.key,
    label: s.label,
    kind: s.kind,
    ...(s.help ? { help: s.help } : {}),
    default: settingDefault(s),
  }));
  return {
    id: plugin.id,
    name: plugin.name,
    secret: { label: plugin.secret.label, generated: plugin.secret.generated },
    ...(settings.length ? { settings } : {}),
  };
}
