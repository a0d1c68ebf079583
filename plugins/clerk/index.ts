/** Clerk: webhooks are sent by Svix, signed with the endpoint's `whsec_` secret under `svix-*` headers. */
import { definePlugin, standardWebhooksRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "clerk",
  name: "Clerk",
  secret: { label: "Signing secret (whsec_…)", generated: false },
  // Clerk's own verifier (`@clerk/backend` verifyWebhook) reads only the svix-* headers.
  ...standardWebhooksRecipe({ prefixes: ["svix-"], secret: "standard" }),
  // Delivered by Svix: its retry schedule spans about 28 hours.
  dedupWindowSeconds: 172800,
  event: (_req, body) => stringAt(body, "type"),
});
