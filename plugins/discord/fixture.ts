import type { PluginFixture } from "../../src/plugins/index.ts";

// A test key pair: the appSecret is the public key Discord shows; signingKey is its 32-byte seed.
export default {
  appSecret: "5a583ac8c3cf3461591760fec5cbf71381ce02afe03b7dec5288c8956cab8e29",
  signingKey: "4c1f0e9d8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d",
  body: JSON.stringify({
    app_permissions: "442368",
    application_id: "1247865092134326272",
    channel_id: "1247866020405088318",
    data: { id: "1247866933114216518", name: "deploy", type: 1, options: [{ name: "service", type: 3, value: "inlet" }] },
    guild_id: "1247865861814374420",
    id: "1384206143208919090",
    member: { user: { id: "53908232506183680", username: "mason", global_name: "Mason" }, roles: [] },
    token: "aW50ZXJhY3Rpb246MTM4NDIwNjE0MzIwODkxOTA5MDpPbkp1c3RBVGVzdFRva2Vu",
    type: 2,
    version: 1,
  }),
  headers: { "user-agent": "Discord-Interactions/1.0 (+https://discord.com)" },
  deliveryId: "1384206143208919090",
  event: "APPLICATION_COMMAND",
} satisfies PluginFixture;
