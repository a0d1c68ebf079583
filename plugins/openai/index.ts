/**
 * OpenAI: Standard Webhooks under `webhook-*`. The secret differs from the standardwebhooks
 * library: a `whsec_` secret is base64-decoded, a secret without the prefix is used as UTF-8
 * (openai-node `resources/webhooks.ts`).
 */
import { definePlugin, standardWebhooksRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "openai",
  name: "OpenAI",
  secret: { label: "Webhook signing secret (whsec_…)", generated: false },
  ...standardWebhooksRecipe({ prefixes: ["webhook-"], secret: "openai" }),
  // OpenAI retries failed deliveries with backoff for up to 72 hours, keeping the webhook-id.
  dedupWindowSeconds: 259200,
  event: (_req, body) => stringAt(body, "type"),
});
