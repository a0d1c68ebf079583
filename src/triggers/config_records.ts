import { newSecret, newWebhookToken } from "../auth/secrets.ts";
import { armedUntilFrom } from "../records/arm_window.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import type { DesiredSettings } from "./apply_plan.ts";
import { laterThan } from "./later_than.ts";
import type { TriggerSettings } from "./normalize.ts";

/** What the trigger service knows that building a trigger from a config file needs. */
export interface RecordRules {
  /** The secret policy (secret_policy.ts). */
  needsGeneratedSecret(settings: TriggerSettings): boolean;
  /** Whether the app's triggers are armed to adopt a secret (trust on first use). */
  armable(app: string | null): boolean;
}

/** A new trigger as a config file wants it (README "Triggers as code"): managed by the config. */
export function createdByConfig({ settings, token, secret, appSecret }: DesiredSettings, at: Date, rules: RecordRules): TriggerRecord {
  const now = at.toISOString();
  return {
    id: Bun.randomUUIDv7(),
    token: token ?? newWebhookToken(),
    ...settings,
    managedBy: "config",
    createdAt: now,
    updatedAt: now,
    secret: rules.needsGeneratedSecret(settings) ? (secret ?? newSecret()) : null,
    appSecret: settings.app !== null ? (appSecret ?? null) : null,
    previous: null,
    // Trust on first use: the provider's set-up follows the creation, so it is armed at once.
    ...(rules.armable(settings.app) ? { armedUntil: armedUntilFrom(at) } : {}),
  };
}

/**
 * An existing trigger with the settings a config file wants, managed by the config from then on:
 * nothing of its old settings is kept but its id, its token (unless the file pins one) and its
 * secrets (unless the file supplies others, or the Authentication Type changes).
 */
export function replacedByConfig(current: TriggerRecord, { settings, token, secret, appSecret }: DesiredSettings, rules: RecordRules): TriggerRecord {
  // As through the API: a new Authentication Type generates a new secret; a supplied one wins.
  const rotate = settings.auth.type !== current.auth.type || !current.secret;
  const nextSecret = rules.needsGeneratedSecret(settings) ? (secret ?? (rotate ? newSecret() : current.secret)) : null;
  const nextAppSecret = settings.app !== null ? (appSecret ?? current.appSecret) : null;
  const rotated = nextSecret !== current.secret || nextAppSecret !== current.appSecret;
  return {
    id: current.id,
    token: token ?? current.token,
    ...settings,
    managedBy: "config",
    createdAt: current.createdAt,
    updatedAt: laterThan(current.updatedAt),
    secret: nextSecret,
    appSecret: nextAppSecret,
    // A secret changed in the file rotates at once: the previous one does not verify any more.
    previous: rotated ? null : current.previous,
    ...(current.armedUntil !== undefined ? { armedUntil: current.armedUntil } : {}),
  };
}
