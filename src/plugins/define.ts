import type { InletPlugin } from "./types.ts";

/**
 * Identity helper that gives a plugin object its types. A plugin file may just as well
 * `export default { … }` with no import at all.
 *
 * @example
 * ```ts
 * export default definePlugin({
 *   id: "acme",
 *   name: "Acme",
 *   secret: { label: "Signing secret", generated: false },
 *   verify: (req, ctx) =>
 *     ctx.timingSafeEqual(req.headers.get("x-acme-signature") ?? "", ctx.hmac("sha256", ctx.secret, req.rawBody, "hex")),
 *   credentialHeaders: ["x-acme-signature"],
 * });
 * ```
 */
export function definePlugin<const P extends InletPlugin>(plugin: P): P {
  return plugin;
}
