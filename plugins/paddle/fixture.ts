import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "pdl_ntfset_01hv8x29kz0t586xy6zn1a62ne_lE3a9Gk2yW7bQ1rT5vX8zC4n",
  body: JSON.stringify({
    event_id: "evt_01hv8x2acma2gz3we6bv9x8c7q",
    event_type: "transaction.completed",
    occurred_at: "2025-06-15T14:26:40.014917Z",
    notification_id: "ntf_01hv8x2afadsjpzqmdqbj3xhfk",
    data: {
      id: "txn_01hv8wptq8987qeep44cyrewp9",
      status: "completed",
      customer_id: "ctm_01hv6y1jedq4p1n0yqn5ba3ky4",
      currency_code: "USD",
      details: { totals: { subtotal: "4200", tax: "0", total: "4200" } },
    },
  }),
  headers: { "user-agent": "Paddle" },
  deliveryId: "evt_01hv8x2acma2gz3we6bv9x8c7q",
  event: "transaction.completed",
} satisfies PluginFixture;
