import { h } from "../dom.ts";
import { field, switchField, type Field } from "../field.ts";
import type { Plugin, Trigger, ValidationDetail } from "../types.ts";
import type { Section } from "./section.ts";

type Setting = NonNullable<Plugin["settings"]>[number];
type Value = string | string[] | boolean;

/** A textarea's lines as a `lines` setting holds them: trimmed, blank ones dropped. */
export const settingLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** One setting's field, named by its label, and how to read its value back. */
function settingField(setting: Setting, value: Value): { field: Field; read(): Value } {
  if (setting.kind === "switch") {
    const f = switchField(setting.label, value === true, setting.help);
    return { field: f, read: () => f.control.checked };
  }
  if (setting.kind === "lines") {
    const lines = Array.isArray(value) ? value : [];
    const f = field(
      setting.label,
      h(
        "textarea",
        { name: `appSettings.${setting.key}`, rows: Math.min(Math.max(lines.length + 1, 3), 10), spellcheck: "false", class: "mono" },
        lines.join("\n"),
      ),
      setting.help ?? "One per line.",
    );
    return { field: f, read: () => settingLines(f.control.value) };
  }
  const f = field(
    setting.label,
    h("input", { type: "text", name: `appSettings.${setting.key}`, autocomplete: "off", spellcheck: "false", value: typeof value === "string" ? value : "" }),
    setting.help,
  );
  return { field: f, read: () => f.control.value.trim() };
}

/**
 * The app's own settings (`appSettings`, declared by its plugin: SNS's `Topic ARNs`, Pub/Sub's
 * `Audience`…), each a field named by its label, in a region named after the app; saved with the
 * trigger. None when the plugin declares no settings.
 */
export function appSettingsFields(trigger: Trigger | null, plugin: Plugin): Section | null {
  const settings = plugin.settings ?? [];
  if (settings.length === 0) return null;
  const saved = (trigger?.appSettings ?? {}) as Record<string, Value>;
  const parts = settings.map((s) => ({ setting: s, ...settingField(s, Object.hasOwn(saved, s.key) ? saved[s.key] : s.default) }));
  const byKey = new Map(parts.map((p) => [p.setting.key, p]));
  const keyOf = (path: string) => /^\/appSettings\/([^/]+)/.exec(path)?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~");
  return {
    el: h(
      "fieldset",
      { class: "region" },
      h("legend", null, `${plugin.name} settings`),
      parts.map((p) => p.field.wrap),
    ),
    value: () => ({ appSettings: Object.fromEntries(parts.map((p) => [p.setting.key, p.read()])) }),
    // The server checks them with the plugin's own rules.
    validate: () => null,
    fieldFor: (path) => byKey.get(keyOf(path) ?? "")?.field ?? null,
    explain: (detail: ValidationDetail) => {
      const line = /^\/appSettings\/[^/]+\/(\d+)$/.exec(detail.path);
      return line ? `Line ${Number(line[1]) + 1}: ${detail.message}` : detail.message;
    },
    fields: parts.map((p) => p.field),
  };
}
