import type { PluginFixture } from "../../src/plugins/index.ts";

// An `invitee.created` event as Calendly documents it (trimmed).
export default {
  appSecret: "cal_sk_q5Wm2Zr8Tn4Xv7Yb1Kc3Hd6J",
  body: JSON.stringify({
    created_at: "2024-05-10T12:00:00.000000Z",
    created_by: "https://api.calendly.com/users/AAAAAAAAAAAAAAAA",
    event: "invitee.created",
    payload: {
      uri: "https://api.calendly.com/scheduled_events/GBGBDCAADAEDCRZ2/invitees/AAAAAAAAAAAAAAAA",
      email: "test@example.com",
      name: "John Doe",
      status: "active",
      timezone: "America/New_York",
      event: "https://api.calendly.com/scheduled_events/GBGBDCAADAEDCRZ2",
      created_at: "2024-05-10T11:59:58.000000Z",
    },
  }),
  deliveryId: null,
  event: "invitee.created",
} satisfies PluginFixture;
