import type { PluginFixture } from "../../src/plugins/index.ts";

// An `issue` webhook (action `created`) as Sentry's integration platform documents it (trimmed).
export default {
  appSecret: "b5a4e0c1f7d24d7e8c9a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6",
  body: JSON.stringify({
    action: "created",
    installation: { uuid: "7a485448-a9e2-4c85-8a3c-4f44175783c9" },
    data: {
      issue: {
        id: "1170820242",
        shortId: "SENTRY-1",
        title: "ZeroDivisionError: division by zero",
        culprit: "app.views in divide",
        level: "error",
        status: "unresolved",
        project: { id: "1", slug: "backend", name: "backend" },
      },
    },
    actor: { type: "application", id: "sentry", name: "Sentry" },
  }),
  headers: {
    "request-id": "6a2c5f5e-5d7e-4b69-9c3b-2f5e1a3b4c5d",
    "sentry-hook-resource": "issue",
    "sentry-hook-timestamp": "1715342400",
  },
  deliveryId: "6a2c5f5e-5d7e-4b69-9c3b-2f5e1a3b4c5d",
  event: "issue.created",
} satisfies PluginFixture;
