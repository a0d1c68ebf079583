import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "8f742231b10e8888abcd99yyyzzz85a5",
  body: JSON.stringify({
    token: "XXYYZZ",
    team_id: "T061EG9R6",
    api_app_id: "A0PNCHHK2",
    event: {
      type: "app_mention",
      user: "U061F7AUR",
      text: "<@U0LAN0Z89> deploy inlet please",
      ts: "1750000000.000200",
      channel: "C0LAN2Q65",
      event_ts: "1750000000.000200",
    },
    type: "event_callback",
    event_id: "Ev0PV52K25",
    event_time: 1750000000,
    authorizations: [{ team_id: "T061EG9R6", user_id: "U0LAN0Z89", is_bot: true }],
  }),
  headers: { "user-agent": "Slackbot 1.0 (+https://api.slack.com/robots)" },
  deliveryId: "Ev0PV52K25",
  event: "app_mention",
} satisfies PluginFixture;
