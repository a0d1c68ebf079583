import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "whsec_SR0dQB0hpitVbtTwUKI65ejZHD5PjRNX",
  body: JSON.stringify({
    type: "invoice.paid",
    data: { id: "inv_2Nq7Ujt3Lw8FkY", customer: "cus_40Xh", amount: 4200, currency: "usd" },
  }),
  headers: { "svix-id": "msg_2Nq7UjtZ1qhLgqxSxbqTLQ6XSzK" },
  deliveryId: "msg_2Nq7UjtZ1qhLgqxSxbqTLQ6XSzK",
  event: "invoice.paid",
} satisfies PluginFixture;
