import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "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",
  body: JSON.stringify({
    id: 820982911946154500,
    admin_graphql_api_id: "gid://shopify/Order/820982911946154508",
    email: "jon@example.com",
    created_at: "2025-06-15T10:26:40-04:00",
    currency: "USD",
    total_price: "42.00",
    financial_status: "paid",
    line_items: [{ id: 866550311766439000, title: "Inlet T-shirt", quantity: 1, price: "42.00", sku: "INL-TS-M" }],
  }),
  headers: {
    "x-shopify-topic": "orders/create",
    "x-shopify-shop-domain": "acme.myshopify.com",
    "x-shopify-api-version": "2025-04",
    "x-shopify-webhook-id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
    "x-shopify-event-id": "98880550-7158-44d4-b7cd-2c97c8a091b5",
    "x-shopify-triggered-at": "2025-06-15T14:26:40.123456Z",
  },
  deliveryId: "98880550-7158-44d4-b7cd-2c97c8a091b5",
  event: "orders/create",
} satisfies PluginFixture;
