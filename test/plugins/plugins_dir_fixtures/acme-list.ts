import type { PluginFixture } from "../../../src/plugins/index.ts";

export default {
  appSecret: "acme_list_secret_4c1d",
  body: '{"id":"evt_1","type":"order.paid","amount":1200}',
  headers: { "acme-delivery": "evt_1" },
  deliveryId: "evt_1",
  event: "order.paid",
} satisfies PluginFixture;
