import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "Nq3GxZ8wR2bKfT5vY7mJpA",
  body: JSON.stringify({
    merchant_id: "6SSW7HV8K2ST5",
    type: "payment.created",
    event_id: "13b867cf-db3d-4b1c-90b6-2f32a9d78124",
    created_at: "2025-06-15T14:26:40.000Z",
    data: {
      type: "payment",
      id: "KkAkhdMsgzn59SM8A89WgKwekxLZY",
      object: {
        payment: {
          id: "KkAkhdMsgzn59SM8A89WgKwekxLZY",
          amount_money: { amount: 4200, currency: "USD" },
          status: "APPROVED",
          source_type: "CARD",
          location_id: "S8GWD5R9QB376",
        },
      },
    },
  }),
  headers: { "user-agent": "Square Connect v2" },
  deliveryId: "13b867cf-db3d-4b1c-90b6-2f32a9d78124",
  event: "payment.created",
} satisfies PluginFixture;
