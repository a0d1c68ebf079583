import type { PluginFixture } from "../../src/plugins/index.ts";

// The body carries a signature block valid at 1750000000; sign() replaces it with a fresh one.
export default {
  appSecret: "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
  body: JSON.stringify({
    signature: {
      token: "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0",
      timestamp: "1750000000",
      signature: "db5bde72e4c4908ba044bfa9c634e816e3bcf4375a8279c1f00210a1eb9a512c",
    },
    "event-data": {
      id: "CPgfbmQMTCKtHW6uIWtuVe",
      timestamp: 1749999999.962,
      "log-level": "info",
      event: "delivered",
      recipient: "ada@example.com",
      "recipient-domain": "example.com",
      tags: ["receipts"],
      message: {
        headers: {
          to: "ada@example.com",
          "message-id": "20250615142639.1.A1B2C3D4E5F6@mg.acme.example",
          from: "billing@acme.example",
          subject: "Your receipt",
        },
        size: 2104,
      },
      "delivery-status": { code: 250, message: "OK", "attempt-no": 1, "session-seconds": 0.42 },
      flags: { "is-authenticated": true, "is-test-mode": false },
    },
  }),
  headers: { "user-agent": "mailgun/treq-16.12.0" },
  deliveryId: "CPgfbmQMTCKtHW6uIWtuVe",
  event: "delivered",
  signsBody: false,
} satisfies PluginFixture;
