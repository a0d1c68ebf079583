import type { PluginFixture } from "../../src/plugins/index.ts";

// A `meeting.started` event as Zoom documents it (trimmed).
export default {
  appSecret: "hZcJ3r1mQ8uS5xT0vW2yA4",
  body: JSON.stringify({
    event: "meeting.started",
    event_ts: 1715342400123,
    payload: {
      account_id: "AAAAAABBBB",
      object: {
        id: "85732618472",
        uuid: "4444AAAiAAAAAiAiAiiAii==",
        host_id: "x1yCzABCDEfg23HiJKl4mN",
        topic: "My Meeting",
        type: 2,
        start_time: "2024-05-10T12:00:00Z",
        timezone: "America/Los_Angeles",
        duration: 60,
      },
    },
  }),
  deliveryId: null,
  event: "meeting.started",
} satisfies PluginFixture;
