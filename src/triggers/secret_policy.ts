import { usesGeneratedSecret } from "../auth/generic.ts";
import type { PluginCatalog, TriggerSettings } from "./normalize.ts";

/**
 * Whether inlet generates (and can reveal) a secret for these settings: a generic trigger whose
 * auth type verifies with a shared secret (not `none`, not a public-key JWT), or an app trigger
 * whose plugin generates its secret (GitHub's, not Stripe's pasted one). The one rule the trigger
 * service creates and changes triggers by, and a config file's `auth.secret` is checked against.
 */
export function needsGeneratedSecret(settings: TriggerSettings, plugins: PluginCatalog): boolean {
  return settings.app === null ? usesGeneratedSecret(settings.auth) : plugins.get(settings.app)?.secret?.generated === true;
}
