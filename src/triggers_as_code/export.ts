import type { TriggerRecord } from "../records/trigger.ts";
import { normalizeTrigger, type NormalizeContext } from "../triggers/normalize.ts";
import { ValidationError } from "../triggers/validation_error.ts";
import { success, type ConfigResult } from "./config_error.ts";
import type { ConfigFormat } from "./parse_config.ts";
import { variablesByTrigger, type SecretVariables } from "./placeholders.ts";
import { inputOf, settingsOf } from "./record_settings.ts";

const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function without(object: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _, ...rest } = object;
  return rest;
}

/**
 * The shortest TriggerInput that the API normalizes to the trigger's settings: fields (and fields
 * of `auth`, `dedup`, …) left out wherever their default gives the same, so an export reads like
 * what a person would write. Each leaving-out is checked by normalizing, so it cannot change
 * what applying the export makes. As stored, when the settings no longer pass the rules.
 */
function shortestInput(record: TriggerRecord, context: NormalizeContext): Record<string, unknown> {
  const full = inputOf(record);
  const target = settingsOf(record, context);
  const same = (candidate: Record<string, unknown>) => {
    try {
      return Bun.deepEquals(normalizeTrigger(candidate, context), target);
    } catch (error) {
      if (error instanceof ValidationError) return false;
      throw error;
    }
  };
  let input = full;
  // Another round while something was left out: a field that is refused while another is
  // present (an app trigger's dedup) can hide that a field before it is a default.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [field, value] of Object.entries(input)) {
      if (field === "name") continue;
      if (same(without(input, field))) {
        input = without(input, field);
        changed = true;
      } else if (isMapping(value)) {
        for (const key of Object.keys(value)) {
          const candidate = { ...input, [field]: without(input[field] as Record<string, unknown>, key) };
          if (same(candidate)) {
            input = candidate;
            changed = true;
          }
        }
      }
    }
  }
  return same(input) ? input : full;
}

/** Every string with `${` written `$${`, so applying the file gives the text back rather than a placeholder's value. */
function escaped(value: unknown): unknown {
  // A function, because in a replacement string "$$" means one "$".
  if (typeof value === "string") return value.replaceAll("${", () => "$${");
  if (Array.isArray(value)) return value.map(escaped);
  if (!isMapping(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, key, { value: escaped(item), enumerable: true, writable: true, configurable: true });
  return out;
}

const placeholder = (variable: string) => `\${${variable}}`;

/** One trigger of the export: name and token first, secrets as placeholders. */
function exported(record: TriggerRecord, variables: SecretVariables, context: NormalizeContext): Record<string, unknown> {
  const { name, app, ...settings } = escaped(shortestInput(record, context)) as Record<string, unknown>;
  const auth = record.secret === null ? settings.auth : { ...(isMapping(settings.auth) ? settings.auth : {}), secret: placeholder(variables.secret) };
  return {
    name,
    ...(app === undefined ? {} : { app }),
    token: placeholder(variables.token),
    ...(record.appSecret === null ? {} : { appSecret: placeholder(variables.appSecret) }),
    ...settings,
    ...(auth === undefined ? {} : { auth }),
  };
}

const YAML_HEADER = [
  "# inlet triggers as code: the format is in docs/config-file.md.",
  "# Tokens and secrets are ${INLET_…} placeholders: set those environment variables to apply it.",
  "",
].join("\n");

/**
 * Every trigger in the config file format (oldest first, so a new one adds lines at the end),
 * YAML or JSON; tokens, generated or supplied secrets and appSecrets as the placeholders
 * `${INLET_<NAME>_TOKEN}`, `${INLET_<NAME>_SECRET}`, `${INLET_<NAME>_APP_SECRET}`, never their
 * values. Two triggers whose names make the same placeholders are an error.
 */
export function exportTriggers(records: readonly TriggerRecord[], context: NormalizeContext, format: ConfigFormat = "yaml"): ConfigResult<string> {
  const named = variablesByTrigger(records);
  if (!named.ok) return named;
  const ordered = [...records].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  const file = { triggers: ordered.map((record) => exported(record, named.value.get(record)!, context)) };
  if (format === "json") return success(`${JSON.stringify(file, null, 2)}\n`);
  return success(`${YAML_HEADER}${Bun.YAML.stringify(file, null, 2)}\n`);
}
