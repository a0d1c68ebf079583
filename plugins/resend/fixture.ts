import type { PluginFixture } from "../../src/plugins/index.ts";

// An `email.delivered` event as Resend documents it.
export default {
  appSecret: "whsec_43dTWN1pmYLYqZXGo6uCBMkKCHerk/5f",
  body: JSON.stringify({
    type: "email.delivered",
    created_at: "2024-11-22T23:41:12.126Z",
    data: {
      created_at: "2024-11-22T23:41:11.894719+00:00",
      email_id: "56761188-7520-42d8-8898-ff6fc54ce618",
      from: "Acme <onboarding@resend.dev>",
      to: ["delivered@resend.dev"],
      subject: "Sending this example",
    },
  }),
  headers: { "svix-id": "msg_2pK0bU1yGdGcj0SgVYvAbOfmGZM" },
  deliveryId: "msg_2pK0bU1yGdGcj0SgVYvAbOfmGZM",
  event: "email.delivered",
} satisfies PluginFixture;
