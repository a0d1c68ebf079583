import type { PluginFixture } from "../../src/plugins/index.ts";

// An `Issue` `create` event as Linear documents it (trimmed). Linear puts the signed timestamp in
// the body (`webhookTimestamp`, ms; here 2024-05-10T12:00:00Z); the plugin's sign() restamps it
// with the signing time, as Linear does on every send.
export default {
  appSecret: "lin_wh_Jf8sK2mQ7xZ1vB4nR6tY9uP3",
  body: JSON.stringify({
    action: "create",
    type: "Issue",
    createdAt: "2024-05-10T11:59:59.420Z",
    organizationId: "8a0f3c2e-1b4d-4e6f-9a7b-2c3d4e5f6a7b",
    url: "https://linear.app/acme/issue/ENG-42/fix-the-webhook",
    data: {
      id: "2174add1-f7c8-44e3-bbf3-2d60b5ea8bc9",
      identifier: "ENG-42",
      title: "Fix the webhook",
      priority: 2,
      teamId: "72b2a2dc-6f4f-4423-9d34-24b5bd10634a",
    },
    webhookTimestamp: 1715342400000,
    webhookId: "000042e3-d123-4980-b49f-8e140eef9329",
  }),
  headers: { "linear-delivery": "234d1a4e-b617-4388-90fe-adc3633d6b72", "linear-event": "Issue" },
  deliveryId: "234d1a4e-b617-4388-90fe-adc3633d6b72",
  event: "Issue.create",
} satisfies PluginFixture;
