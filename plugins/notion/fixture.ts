import type { PluginFixture } from "../../src/plugins/index.ts";

// A `page.properties_updated` event as Notion documents it (trimmed).
export default {
  appSecret: "secret_tMrlL1qK5vuQAh1b6cZGhFChZTSYJlce98V0pYn7yBl",
  body: JSON.stringify({
    id: "367cba44-b6f3-4c92-81e7-6a2e9659efd4",
    timestamp: "2024-12-05T23:57:05.379Z",
    workspace_id: "13950b26-c203-4f3b-b97d-93ec06319565",
    workspace_name: "Quantify Labs",
    subscription_id: "29d75c0d-5546-4414-8459-7b7a92f1fc4b",
    integration_id: "0ef2e755-4912-8096-91c1-00376a88a5ca",
    type: "page.properties_updated",
    authors: [{ id: "c7c11cca-1d73-471d-9b6e-bdef51470190", type: "person" }],
    accessible_by: [{ id: "556a1abf-4f08-40c6-878a-75890d2a88ba", type: "person" }],
    attempt_number: 1,
    entity: { id: "0ef104cd-477e-80e1-8571-cf7bf5bd7ff9", type: "page" },
    data: { parent: { id: "13950b26-c203-4f3b-b97d-93ec06319565", type: "space" }, updated_properties: ["XGe%40", "bDf%5B", "DbAu"] },
  }),
  deliveryId: "367cba44-b6f3-4c92-81e7-6a2e9659efd4",
  event: "page.properties_updated",
} satisfies PluginFixture;
