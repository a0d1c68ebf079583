/**
 * Dropbox: `X-Dropbox-Signature: <hex HMAC-SHA256 of the raw body>`, keyed by the app secret.
 * When the URL is saved Dropbox sends `GET ?challenge=…` and expects the challenge back as
 * text/plain with `X-Content-Type-Options: nosniff` (the echo is attacker-chosen text: never
 * let a browser sniff it as HTML).
 */
import { definePlugin, hmacRecipe, type PluginRequest, valueAt } from "../../src/plugins/index.ts";

const recipe = hmacRecipe({ header: "X-Dropbox-Signature", algorithm: "sha256", encoding: "hex" });

/** The `challenge` of Dropbox's verification request (a GET or HEAD), else `null`. */
function challenge(req: PluginRequest): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  try {
    return new URL(req.url).searchParams.get("challenge") || null;
  } catch {
    return null;
  }
}

export default definePlugin({
  id: "dropbox",
  name: "Dropbox",
  secret: { label: "App secret", generated: false },
  // The verification GET is unsigned; it lets nothing through but the echo handshake() gives it.
  verify: (req, ctx) => (challenge(req) !== null ? true : recipe.verify(req, ctx)),
  handshake(req) {
    const value = challenge(req);
    if (value === null) return null;
    return new Response(req.method === "HEAD" ? null : value, {
      status: 200,
      headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" },
    });
  },
  // No delivery id: a notification only says "these accounts changed", and the app then pulls the
  // changes with its cursor. Identical bodies for separate changes are normal, so the window is
  // short: it collapses re-sends and bursts, and a collapsed notification only delays a sync
  // (the changes stay behind the cursor until the next one).
  contentDedupWindowSeconds: 60,
  event: (_req, body) => (valueAt(body, "list_folder") !== undefined ? "list_folder" : null),
  credentialHeaders: recipe.credentialHeaders,
  sign: recipe.sign,
});
