/**
 * Svix: the Standard Webhooks recipe under `svix-id` / `svix-timestamp` / `svix-signature`.
 * White-labelled Svix plans send the same recipe under `webhook-*`; both are accepted, the
 * `svix-*` header first (as the svix library does).
 */
import { definePlugin, standardWebhooksRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "svix",
  name: "Svix",
  secret: { label: "Endpoint signing secret (whsec_…)", generated: false },
  ...standardWebhooksRecipe({ prefixes: ["svix-", "webhook-"], secret: "standard" }),
  // Svix retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (about 28 h in all), always
  // with the same svix-id: two days covers the schedule with room for a manual resend.
  dedupWindowSeconds: 172800,
  event: (_req, body) => stringAt(body, "type"),
});
