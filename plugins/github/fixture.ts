import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "9c1f4e2b7a0d4f6e8b3c5a7d9e1f2a4b",
  body: JSON.stringify({
    ref: "refs/heads/main",
    before: "6113728f27ae82c7b1a177c8d03f9e96e0adf246",
    after: "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c",
    repository: { id: 186853002, name: "inlet", full_name: "octo-org/inlet", private: true },
    pusher: { name: "octocat", email: "octocat@github.com" },
    commits: [
      {
        id: "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c",
        message: "Fix the dedup window",
        timestamp: "2025-06-15T16:26:40+02:00",
        author: { name: "Mona", email: "mona@github.com", username: "mona" },
      },
    ],
  }),
  headers: {
    "x-github-event": "push",
    "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
    "x-github-hook-id": "292430182",
    "user-agent": "GitHub-Hookshot/044aadd",
  },
  deliveryId: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
  event: "push",
} satisfies PluginFixture;
