import { authenticateAppRequest } from "./authenticate.ts";
import { declaredHandshake } from "./declared_handshake.ts";
import type { HandshakeResult, InletPlugin, PluginContext, PluginRequest } from "./types.ts";

/**
 * The handshake the host runs for a plugin: its `handshake()` function, or its declared
 * `handshakes` compiled once; `undefined` when it has neither. The registry stores this as the
 * loaded plugin's `handshake`, so the request path sees one hook whichever way it was written.
 *
 * @example
 * ```ts
 * const handshake = hostHandshake(slack);
 * const answer = handshake ? await handshake(req, ctx) : null;
 * ```
 */
export function hostHandshake(plugin: InletPlugin): InletPlugin["handshake"] {
  if (plugin.handshake) return plugin.handshake.bind(plugin);
  if (plugin.handshakes && plugin.handshakes.length > 0) return declaredHandshake(plugin.handshakes);
  return undefined;
}

/**
 * The handshake answer the host gives a request, in the host's order: a GET or HEAD is asked
 * directly (providers do not sign those URL checks); a POST only once it authenticates
 * (signature, then tolerance), so a plugin's handshake never checks a signature itself.
 * `null`: no handshake answer (a forged POST then gets the host's 401).
 *
 * @example
 * ```ts
 * const answer = await handshakeAnswer(slack, req, pluginContext(secret, new Date()));
 * ```
 */
export async function handshakeAnswer(plugin: InletPlugin, req: PluginRequest, ctx: PluginContext): Promise<HandshakeResult> {
  const handshake = hostHandshake(plugin);
  if (!handshake) return null;
  if (req.method !== "GET" && req.method !== "HEAD" && !(await authenticateAppRequest(plugin, req, ctx)).ok) return null;
  return (await handshake(req, ctx)) ?? null;
}
