import { TriggerInputSchema } from "../records/trigger_schemas.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { normalizeTrigger, type NormalizeContext, type TriggerSettings } from "../triggers/normalize.ts";
import { ValidationError } from "../triggers/validation_error.ts";

/** The fields a TriggerInput has, in the API's order; `appSecret` is a secret, never a setting. */
export const INPUT_FIELDS = Object.keys(TriggerInputSchema.properties).filter((field) => field !== "appSecret");

/** A stored trigger's settings as a TriggerInput would give them: every input field it has, no secret. */
export function inputOf(record: TriggerRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of INPUT_FIELDS) {
    const value = (record as unknown as Record<string, unknown>)[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * A stored trigger's settings as the API normalizes them today (an empty change on top of them),
 * so one saved before a field had its default compares equal to a file that leaves it out. As
 * stored when they no longer pass the rules (e.g. its app's plugin is not loaded).
 */
export function settingsOf(record: TriggerRecord, context: NormalizeContext): Record<string, unknown> {
  const stored = inputOf(record);
  try {
    return normalizeTrigger({}, context, stored as unknown as TriggerSettings) as unknown as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ValidationError) return stored;
    throw error;
  }
}
