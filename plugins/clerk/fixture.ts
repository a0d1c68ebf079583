import type { PluginFixture } from "../../src/plugins/index.ts";

// A `user.created` event as Clerk documents it (trimmed).
export default {
  appSecret: "whsec_ycDu7hXLfWS2z8rQMYpL3XzOaIyS7YOB",
  body: JSON.stringify({
    data: {
      id: "user_29w83sxmDNGwOuEthce5gg56FcC",
      object: "user",
      first_name: "Example",
      last_name: "Example",
      email_addresses: [{ id: "idn_29w83yL7CwVlJXylYLxcslromF1", email_address: "example@example.org", object: "email_address" }],
      primary_email_address_id: "idn_29w83yL7CwVlJXylYLxcslromF1",
      created_at: 1654012591514,
      updated_at: 1654012591835,
    },
    event_attributes: { http_request: { client_ip: "0.0.0.0", user_agent: "Mozilla/5.0" } },
    object: "event",
    timestamp: 1654012591835,
    type: "user.created",
  }),
  headers: { "svix-id": "msg_2gCuK0Yi5PlX2V2dFiLeDGnTRpf" },
  deliveryId: "msg_2gCuK0Yi5PlX2V2dFiLeDGnTRpf",
  event: "user.created",
} satisfies PluginFixture;
