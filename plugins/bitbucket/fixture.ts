import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "bb-webhook-secret-6d2e91",
  body: JSON.stringify({
    push: {
      changes: [
        {
          new: { type: "branch", name: "main", target: { hash: "a1c5e8f90b2d4c6e8f0a1b3c5d7e9f1a2b4c6d8e" } },
          old: { type: "branch", name: "main", target: { hash: "f0e1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d" } },
          created: false,
          forced: false,
        },
      ],
    },
    repository: { type: "repository", full_name: "acme/inlet", uuid: "{6f1d3a2e-9b8c-4d7e-a6f5-0e1d2c3b4a59}" },
    actor: { display_name: "Ada Lovelace", uuid: "{a6e3c1d2-0b9f-4e8d-9c7b-5a4f3e2d1c0b}" },
  }),
  headers: {
    "x-event-key": "repo:push",
    "x-request-uuid": "1f0e7a4c-2b3d-4e5f-8a9b-0c1d2e3f4a5b",
    "x-hook-uuid": "8e9f0a1b-2c3d-4e5f-6a7b-8c9d0e1f2a3b",
    "x-attempt-number": "1",
    "user-agent": "Bitbucket-Webhooks/2.0",
  },
  deliveryId: "1f0e7a4c-2b3d-4e5f-8a9b-0c1d2e3f4a5b",
  event: "repo:push",
} satisfies PluginFixture;
