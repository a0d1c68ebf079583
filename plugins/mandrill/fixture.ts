import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "Zc3kP9vX2mQ7rT1wY5nB8a",
  body: new URLSearchParams({
    mandrill_events: JSON.stringify([
      {
        event: "send",
        _id: "7761629c3b2a4dc1bd1d5b6e8d2a4f1c",
        ts: 1750000000,
        msg: {
          ts: 1749999999,
          _id: "7761629c3b2a4dc1bd1d5b6e8d2a4f1c",
          state: "sent",
          subject: "Your receipt",
          email: "ada@example.com",
          sender: "billing@acme.example",
          tags: ["receipts"],
          metadata: { user_id: 111 },
        },
      },
      {
        event: "open",
        _id: "7761629c3b2a4dc1bd1d5b6e8d2a4f1c",
        ts: 1750000060,
        ip: "203.0.113.7",
        location: { country_short: "GB", city: "London" },
        user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)",
        msg: { ts: 1749999999, _id: "7761629c3b2a4dc1bd1d5b6e8d2a4f1c", state: "sent", email: "ada@example.com" },
      },
    ]),
  }).toString(),
  contentType: "application/x-www-form-urlencoded",
  headers: { "user-agent": "Mandrill-Webhook/1.0" },
  deliveryId: null,
  event: "send,open",
} satisfies PluginFixture;
