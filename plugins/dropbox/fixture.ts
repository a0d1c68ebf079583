import type { PluginFixture } from "../../src/plugins/index.ts";

// A notification as Dropbox documents it: these accounts have changes to pull.
export default {
  appSecret: "u9f3kx0q2m7w4zs",
  body: JSON.stringify({ list_folder: { accounts: ["dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc"] }, delta: { users: [12345678] } }),
  deliveryId: null,
  event: "list_folder",
} satisfies PluginFixture;
