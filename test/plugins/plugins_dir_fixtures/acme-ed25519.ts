import type { PluginFixture } from "../../../src/plugins/index.ts";

export default {
  // The public key of the seed below (32 × 0x07), derived with node:crypto.
  appSecret: "ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c",
  signingKey: "07".repeat(32),
  body: '{"kind":"user.created","user":{"id":42}}',
  deliveryId: null,
  event: "user.created",
} satisfies PluginFixture;
