/**
 * Adds one section's part of the TriggerInput to `body`. Two sections may each give part of one
 * object — Authentication its type, the rollout its mode — so objects under one key merge.
 */
export function mergeInto(body: Record<string, unknown>, part: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(part)) {
    const current = body[key];
    body[key] = isObject(current) && isObject(value) ? { ...current, ...value } : value;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
