import type { PluginFixture } from "../../src/plugins/index.ts";

// A `form_response` delivery as Typeform documents it (trimmed).
export default {
  appSecret: "tf_whsec_6b1d0c3e9a2f4b8d",
  body: JSON.stringify({
    event_id: "01HCXQ3Z7Y5W9T8K2M4N6P0R1S",
    event_type: "form_response",
    form_response: {
      form_id: "lT4Z3j",
      token: "a3a12ec67a1ace1b5d3ec1f4c7a1d8e9",
      landed_at: "2024-05-10T12:00:21Z",
      submitted_at: "2024-05-10T12:01:43Z",
      definition: { id: "lT4Z3j", title: "Webhooks example", fields: [{ id: "DlXFaesGBpoF", type: "short_text", title: "Your name?" }] },
      answers: [{ type: "text", text: "Ada", field: { id: "DlXFaesGBpoF", type: "short_text" } }],
    },
  }),
  deliveryId: "01HCXQ3Z7Y5W9T8K2M4N6P0R1S",
  event: "form_response",
} satisfies PluginFixture;
