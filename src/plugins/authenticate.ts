import type { AuthResult } from "../auth/auth_result.ts";
import { whyRefused } from "./context.ts";
import { ProviderUnavailable } from "./provider_errors.ts";
import type { InletPlugin, PluginContext, PluginRequest } from "./types.ts";

/**
 * Runs a plugin's recipe the way the host does for every app-trigger request: the signature,
 * then the timestamp tolerance the plugin declares (two-sided; a missing timestamp fails).
 * A plugin that throws is treated as a failed verification, never as a pass — except a
 * `ProviderUnavailable` (its provider's keys could not be fetched), which is thrown on for the
 * host to answer 503: the request was neither verified nor refused.
 *
 * @example
 * ```ts
 * const result = await authenticateAppRequest(github, req, pluginContext(secret, new Date()));
 * if (!result.ok) console.log(result.reason);
 * ```
 */
export async function authenticateAppRequest(plugin: InletPlugin, req: PluginRequest, ctx: PluginContext): Promise<AuthResult> {
  let verified: boolean;
  try {
    verified = (await plugin.verify(req, ctx)) === true;
  } catch (error) {
    if (error instanceof ProviderUnavailable) throw error;
    return { ok: false, reason: `${plugin.id} verification threw: ${(error as Error)?.message ?? String(error)}` };
  }
  if (!verified) {
    const refused = whyRefused(ctx);
    return { ok: false, reason: `${plugin.id} signature missing or invalid${refused ? ` (${refused})` : ""}` };
  }
  // A declared tolerance needs a timestamp (the registry refuses a plugin with one but not the other): none is a 401.
  if (plugin.toleranceSeconds !== undefined) {
    let ts: number | null;
    try {
      ts = plugin.timestamp?.(req, ctx) ?? null;
    } catch {
      ts = null;
    }
    if (ts === null || !Number.isFinite(ts)) return { ok: false, reason: `${plugin.id} timestamp missing or malformed` };
    const skew = ctx.now.getTime() / 1000 - ts;
    if (Math.abs(skew) > plugin.toleranceSeconds) {
      return {
        ok: false,
        reason: `${plugin.id} timestamp ${skew > 0 ? "too old" : "in the future"} by ${Math.round(Math.abs(skew))} s (tolerance ${plugin.toleranceSeconds} s)`,
      };
    }
  }
  return { ok: true };
}
