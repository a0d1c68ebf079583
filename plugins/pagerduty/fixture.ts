import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "pd-v3-subscription-secret-9f2e7c",
  body: JSON.stringify({
    event: {
      id: "01DEN3DEWUGRCH4C4BJFAQBSJU",
      event_type: "incident.triggered",
      resource_type: "incident",
      occurred_at: "2025-06-15T14:26:40.000Z",
      agent: { html_url: "https://acme.pagerduty.com/users/PLH1HKV", id: "PLH1HKV", type: "user_reference" },
      data: {
        id: "PGR0VU2",
        type: "incident",
        number: 2,
        title: "A little bump in the road",
        status: "triggered",
        urgency: "high",
        service: { id: "PF9KMXH", summary: "API Service", type: "service_reference" },
      },
    },
  }),
  headers: {
    "x-webhook-id": "c3f2a1b0-9e8d-4c7b-a6f5-e4d3c2b1a0f9",
    "x-webhook-subscription": "PY1OQ3B",
    "user-agent": "PagerDuty-Webhook/V3.0",
  },
  deliveryId: "c3f2a1b0-9e8d-4c7b-a6f5-e4d3c2b1a0f9",
  event: "incident.triggered",
} satisfies PluginFixture;
