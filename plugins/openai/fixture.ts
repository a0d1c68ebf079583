import type { PluginFixture } from "../../src/plugins/index.ts";

// A `response.completed` event as OpenAI documents it.
export default {
  appSecret: "whsec_OjcxjfgJbqMbAfLsnZPDS4by4buFqSIu",
  body: JSON.stringify({
    id: "evt_685343a1381c819085d44c354e1b330e",
    object: "event",
    created_at: 1750287018,
    type: "response.completed",
    data: { id: "resp_abc123" },
  }),
  headers: { "webhook-id": "wh_685342e6c53c8190a1be43f081506c52" },
  deliveryId: "wh_685342e6c53c8190a1be43f081506c52",
  event: "response.completed",
} satisfies PluginFixture;
