import type { PluginFixture } from "../../../src/plugins/index.ts";

export default {
  appSecret: "acme-hook-secret-9f2e",
  body: '{"event":"ticket.closed","ticket":7}',
  headers: { "x-acme-delivery": "del-7" },
  deliveryId: "del-7",
  event: "ticket.closed",
} satisfies PluginFixture;
