import type { PluginFixture } from "../../src/plugins/index.ts";

// A `conversation.user.created` notification as Intercom documents it (trimmed).
export default {
  appSecret: "3c5c1f2a-6d8e-4b7a-9f01-2e4d5a6b7c8d",
  body: JSON.stringify({
    type: "notification_event",
    app_id: "ecahpwf5",
    data: {
      type: "notification_event_data",
      item: { type: "conversation", id: "147", created_at: 1400325600, user: { type: "user", id: "536e564f316c83104c000020" } },
    },
    links: {},
    id: "notif_ccd8a4d2-c3e9-4c2f-9c7a-7b1e2a3f4d5e",
    topic: "conversation.user.created",
    delivery_status: "pending",
    delivery_attempts: 1,
    delivered_at: 0,
    first_sent_at: 1400325600,
    created_at: 1400325600,
    self: null,
  }),
  deliveryId: "notif_ccd8a4d2-c3e9-4c2f-9c7a-7b1e2a3f4d5e",
  event: "conversation.user.created",
} satisfies PluginFixture;
