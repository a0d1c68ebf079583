import { h } from "../dom.ts";
import { field, type Field } from "../field.ts";
import type { Plugin, Trigger } from "../types.ts";
import { appSettingsFields } from "./app_settings_fields.ts";
import { armControl } from "./arm.ts";
import type { Section } from "./section.ts";

/**
 * What an app trigger needs: the provider's secret (write-only: pasted, never shown back), and
 * how inlet treats the provider's calls, since there is nothing to configure for those.
 */
export function appSection(trigger: Trigger | null, plugin: Plugin): Section {
  const name = plugin.name;
  let secret: Field<HTMLInputElement> | null = null;
  const parts: Node[] = [];
  const noSecret = /^none\b/i.test(plugin.secret.label);
  if (!plugin.secret.generated && !noSecret) {
    const stored = trigger?.auth.hasSecret === true;
    secret = field(
      plugin.secret.label,
      h("input", {
        type: "password",
        name: "appSecret",
        autocomplete: "off",
        spellcheck: "false",
        class: "mono",
        placeholder: stored ? "Stored: paste a new one to replace it" : `Paste it from ${name}`,
      }),
      stored
        ? `A secret is stored. It is write-only: paste a new one only to replace it.`
        : `Paste what ${name} shows for verifying its webhooks. It is stored encrypted and never shown again.`,
    );
    parts.push(secret.wrap);
  }
  const facts = [
    plugin.secret.generated
      ? `Verification: inlet generates the ${plugin.secret.label.toLowerCase()}; reveal it after saving and paste it into ${name}. Every call is checked against ${name}'s signature recipe.`
      : noSecret
        ? `Verification: ${plugin.secret.label.replace(/^none needed:\s*/i, "")}.`
        : `Verification: every call is checked against ${name}'s own signature recipe with this secret; where the recipe signs a timestamp, stale or future calls get 401.`,
    `Handshake: ${name} calls with POST. GET and HEAD reach only ${name}'s URL check, if it has one, and are answered only once verified.`,
    `Deduplication is automatic: ${name}'s retries of a delivery are collapsed by its delivery id; where there is none, by the exact content for a short window. Collapsed retries show as Deduplicated in Activity.`,
  ];
  // Only a trigger whose plugin adopts its secret carries armedUntil.
  if (trigger && trigger.armedUntil !== undefined) parts.push(armControl(trigger, plugin));
  const settings = appSettingsFields(trigger, plugin);
  if (settings) parts.push(settings.el);
  parts.push(
    h(
      "div",
      { class: "note" },
      h("p", { class: "note-title" }, `How ${name} calls are handled`),
      h(
        "ul",
        null,
        facts.map((f) => h("li", null, f)),
      ),
    ),
  );
  return {
    el: h("div", { class: "stack" }, parts),
    value() {
      const typed = secret?.control.value.trim() ?? "";
      return { ...(typed ? { appSecret: typed } : {}), ...settings?.value() };
    },
    validate() {
      // Some providers hand the secret over on their first call ("adopted"); the rest need it now.
      if (secret && !trigger && !/adopted/i.test(plugin.secret.label) && secret.control.value.trim() === "") {
        secret.setError(`Paste the ${plugin.secret.label.toLowerCase()} from ${name}: without it no call can be verified.`);
        return secret.control;
      }
      secret?.setError(null);
      return null;
    },
    fieldFor: (path) => (path.startsWith("/appSecret") ? secret : (settings?.fieldFor(path) ?? null)),
    explain: (detail) => settings?.explain?.(detail) ?? detail.message,
    fields: [...(secret ? [secret] : []), ...(settings?.fields ?? [])],
  };
}
