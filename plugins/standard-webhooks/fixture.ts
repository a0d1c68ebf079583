import type { PluginFixture } from "../../src/plugins/index.ts";

// The payload shape the Standard Webhooks spec uses in its examples.
export default {
  appSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  body: JSON.stringify({
    type: "contact.created",
    timestamp: "2022-11-03T20:26:10.344522Z",
    data: { id: "1f81eb52-5198-4599-803e-771906343485", name: "Ada Lovelace", email: "ada@example.com" },
  }),
  headers: { "webhook-id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W" },
  deliveryId: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
  event: "contact.created",
} satisfies PluginFixture;
