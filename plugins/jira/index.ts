/**
 * Jira Cloud admin webhooks with a secret: HMAC-SHA256 of the raw body, hex, in
 * `X-Hub-Signature` as `sha256=<hex>` (WebSub style). Connect and Forge apps sign with a JWT
 * instead; they are not this plugin.
 */
import { definePlugin, hmacRecipe, stringAt } from "../../src/plugins/index.ts";

export default definePlugin({
  id: "jira",
  name: "Jira",
  secret: { label: "Webhook secret", generated: false },
  ...hmacRecipe({ header: "X-Hub-Signature", algorithm: "sha256", encoding: "hex", prefix: "sha256=" }),
  // Unique per site and unchanged across retries (X-Atlassian-Webhook-Retry counts them).
  deliveryId: (req) => req.headers.get("x-atlassian-webhook-identifier") || null,
  dedupWindowSeconds: 86400,
  // `jira:issue_created`, `comment_created`…
  event: (_req, body) => stringAt(body, "webhookEvent"),
});
