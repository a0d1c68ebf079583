import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "glwht-7f3e9a1c5b2d8e4f6a0c",
  body: JSON.stringify({
    object_kind: "push",
    event_name: "push",
    before: "95790bf891e76fee5e1747ab589903a6a1f80f22",
    after: "da1560886d4f094c3e6c9ef40349f7d38b5d27d7",
    ref: "refs/heads/main",
    user_username: "jsmith",
    project_id: 15,
    project: { id: 15, name: "inlet", path_with_namespace: "acme/inlet", default_branch: "main" },
    commits: [
      {
        id: "da1560886d4f094c3e6c9ef40349f7d38b5d27d7",
        message: "Retry the HTTP target with jitter",
        timestamp: "2025-06-15T16:26:40+02:00",
        author: { name: "Jane Smith", email: "jsmith@example.com" },
      },
    ],
    total_commits_count: 1,
  }),
  headers: {
    "x-gitlab-event": "Push Hook",
    "x-gitlab-instance": "https://gitlab.example.com",
    "x-gitlab-webhook-uuid": "0f7c1e2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f",
    "x-gitlab-event-uuid": "4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8",
    "idempotency-key": "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
    "user-agent": "GitLab/17.6.0",
  },
  deliveryId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  event: "push",
  signsBody: false,
} satisfies PluginFixture;
