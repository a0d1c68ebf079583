/**
 * Standard Webhooks (https://www.standardwebhooks.com): any sender that follows the spec —
 * `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over `${id}.${ts}.${body}`.
 */
import { definePlugin, standardWebhooksRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "standard-webhooks",
  name: "Standard Webhooks",
  secret: { label: "Signing secret (whsec_…)", generated: false },
  ...standardWebhooksRecipe({ prefixes: ["webhook-"], secret: "standard" }),
  // The spec fixes no retry schedule; its reference schedule (Svix's) spans about 28 hours and
  // senders also allow manual re-sends, so remember ids for three days.
  dedupWindowSeconds: 259200,
  event: (_req, body) => stringAt(body, "type"),
});
