import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "jira-admin-webhook-secret-41c7",
  body: JSON.stringify({
    timestamp: 1750000000000,
    webhookEvent: "jira:issue_created",
    issue_event_type_name: "issue_created",
    user: { accountId: "5b10a2844c20165700ede21g", displayName: "Ada Lovelace" },
    issue: {
      id: "10042",
      key: "OPS-17",
      fields: {
        summary: "Webhook retries pile up",
        issuetype: { name: "Bug" },
        priority: { name: "High" },
        status: { name: "To Do" },
      },
    },
  }),
  headers: {
    "x-atlassian-webhook-identifier": "8f3c2a1b-6d5e-4f70-9a8b-7c6d5e4f3a2b",
    "x-atlassian-webhook-retry": "0",
  },
  deliveryId: "8f3c2a1b-6d5e-4f70-9a8b-7c6d5e4f3a2b",
  event: "jira:issue_created",
} satisfies PluginFixture;
