import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "whsec_5b1d7a3c9e2f4b6d8a0c1e3f5a7b9d2e",
  body: JSON.stringify(
    {
      id: "evt_3PXk2aLkdIwHu7ix0Q9zWmRb",
      object: "event",
      api_version: "2025-05-28.basil",
      created: 1750000000,
      type: "payment_intent.succeeded",
      livemode: false,
      pending_webhooks: 1,
      request: { id: "req_8bHc2KqVxZ3n1L", idempotency_key: "a6f0e1c2-3b4d-4e5f-8a9b-0c1d2e3f4a5b" },
      data: {
        object: {
          id: "pi_3PXk2aLkdIwHu7ix0kqJbM1T",
          object: "payment_intent",
          amount: 4200,
          currency: "usd",
          status: "succeeded",
          customer: "cus_QF3d2Lx9Zq1Wn8",
        },
      },
    },
    null,
    2,
  ),
  headers: { "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
  deliveryId: "evt_3PXk2aLkdIwHu7ix0Q9zWmRb",
  event: "payment_intent.succeeded",
} satisfies PluginFixture;
