import type { TriggerRecord } from "../records/trigger.ts";
import { failure, success, type ConfigError, type ConfigResult } from "./config_error.ts";

/** The environment variables an export names for one trigger's secrets (docs/config-file.md#the-export). */
export interface SecretVariables {
  token: string;
  secret: string;
  appSecret: string;
}

/** `INLET_<NAME>_…`: the name upper-cased, every character but A–Z and 0–9 as `_`. */
export function secretVariables(name: string): SecretVariables {
  const stem = `INLET_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
  return { token: `${stem}_TOKEN`, secret: `${stem}_SECRET`, appSecret: `${stem}_APP_SECRET` };
}

/** Each trigger's variables; two triggers whose names make the same variables are an error naming both. */
export function variablesByTrigger(records: readonly TriggerRecord[]): ConfigResult<Map<TriggerRecord, SecretVariables>> {
  const out = new Map<TriggerRecord, SecretVariables>();
  const owner = new Map<string, TriggerRecord>();
  const errors: ConfigError[] = [];
  for (const record of records) {
    const variables = secretVariables(record.name);
    const other = owner.get(variables.token);
    if (other) {
      errors.push({
        code: "export_name_collision",
        trigger: record.name,
        message: `its secrets would be exported as ${variables.token.replace(/_TOKEN$/, "_…")} like those of "${other.name}" (${other.id}): rename one of the two`,
      });
      continue;
    }
    owner.set(variables.token, record);
    out.set(record, variables);
  }
  return errors.length > 0 ? failure(errors) : success(out);
}

/**
 * The environment an export needs, with the records' own values: for tests that apply an export
 * and check it reproduces the triggers. The CLI never prints this.
 */
export function exportVariables(records: readonly TriggerRecord[]): ConfigResult<Record<string, string>> {
  const named = variablesByTrigger(records);
  if (!named.ok) return named;
  const env: Record<string, string> = {};
  for (const [record, variables] of named.value) {
    env[variables.token] = record.token;
    if (record.secret !== null) env[variables.secret] = record.secret;
    if (record.appSecret !== null) env[variables.appSecret] = record.appSecret;
  }
  return success(env);
}
