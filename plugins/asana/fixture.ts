import type { PluginFixture } from "../../src/plugins/index.ts";

// An event batch as Asana documents it: a task's name changed. The secret is what Asana's
// handshake handed over (X-Hook-Secret).
export default {
  appSecret: "b537207f20cbfa02357cf448134da559e8bd39d61597dcd5631b8012eae53e81",
  body: JSON.stringify({
    events: [
      {
        user: { gid: "1111", resource_type: "user" },
        created_at: "2024-05-10T12:00:00.012Z",
        action: "changed",
        change: { field: "name", action: "changed" },
        resource: { gid: "2222", resource_type: "task", resource_subtype: "default_task" },
        parent: null,
      },
    ],
  }),
  deliveryId: null,
  event: "task.changed",
} satisfies PluginFixture;
