import { declaredHandshake } from "./declared_handshake.ts";
import type { InletPlugin } from "./types.ts";

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
