import type { PluginFixture } from "../../src/plugins/index.ts";

// A `deployment.succeeded` event as Vercel documents it (trimmed).
export default {
  appSecret: "vcwh_7f3a9c1e5b2d8f4a6c0e1b3d",
  body: JSON.stringify({
    id: "uev_gSWcCfw1L5Mc5E8DtlmD2Cu4",
    type: "deployment.succeeded",
    createdAt: 1715342400000,
    region: "iad1",
    payload: {
      team: { id: "team_a1b2c3" },
      user: { id: "user_d4e5f6" },
      deployment: { id: "dpl_2euZBFqxYdDMDG1jTrHFnNZ2eUVa", url: "my-app-abc123.vercel.app", name: "my-app" },
      project: { id: "prj_12HKQaOmR5t5Uy6vdcQsNIiZgHGB" },
      target: "production",
    },
  }),
  deliveryId: "uev_gSWcCfw1L5Mc5E8DtlmD2Cu4",
  event: "deployment.succeeded",
} satisfies PluginFixture;
