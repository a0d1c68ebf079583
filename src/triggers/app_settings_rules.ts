import { resolveAppSettings } from "../plugins/app_settings.ts";
import type { ProviderFetch } from "../plugins/provider_fetch.ts";
import type { AppSettingSpec } from "../plugins/types.ts";
import type { ValidationDetail } from "./validation_error.ts";

/** What the settings rules need of a loaded plugin. */
export interface SettingsOwner {
  name?: string;
  settings?: readonly AppSettingSpec[];
}

/** Where the check of a setting that names a URL learns what `ctx.fetchText` would refuse. */
export type FetchRules = Pick<ProviderFetch, "problem">;

/**
 * A trigger's `appSettings` after a save (README "App webhook triggers"): for an app whose plugin
 * declares settings, every one of them, checked by the plugin (`current`: what is stored, which a
 * change updates key by key); otherwise none, and any given is refused.
 */
export function appSettingsRules(
  app: string | null,
  plugin: SettingsOwner | undefined,
  given: Record<string, unknown> | undefined,
  current: Record<string, string | string[] | boolean> | undefined,
  where: { triggerUrl: string; fetchRules: FetchRules },
): { appSettings?: Record<string, string | string[] | boolean>; details: ValidationDetail[] } {
  if (app === null) {
    const details =
      given === undefined ? [] : [{ path: "/appSettings", message: "appSettings are for app triggers only (set app to the plugin whose settings they are)" }];
    return { details };
  }
  // An app that is not loaded is refused at /app already.
  if (!plugin) return { details: [] };
  const ctx = { triggerUrl: where.triggerUrl, fetchProblem: (url: string, rule: Parameters<FetchRules["problem"]>[1]) => where.fetchRules.problem(url, rule) };
  const { settings, problems } = resolveAppSettings({ name: plugin.name ?? app, settings: plugin.settings }, given, current, ctx);
  return { ...(plugin.settings?.length ? { appSettings: settings } : {}), details: problems };
}
