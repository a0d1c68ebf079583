import type { PluginFixture } from "../../src/plugins/index.ts";

export default {
  appSecret: "",
  body: new URLSearchParams([
    ["type", "subscribe"],
    ["fired_at", "2025-06-15 14:26:40"],
    ["data[id]", "8a25ff1d98"],
    ["data[list_id]", "a6b5da1054"],
    ["data[email]", "ada@example.com"],
    ["data[email_type]", "html"],
    ["data[ip_opt]", "203.0.113.7"],
    ["data[ip_signup]", "203.0.113.7"],
    ["data[merges][EMAIL]", "ada@example.com"],
    ["data[merges][FNAME]", "Ada"],
    ["data[merges][LNAME]", "Lovelace"],
    ["data[merges][INTERESTS]", "Group1,Group2"],
  ]).toString(),
  contentType: "application/x-www-form-urlencoded",
  headers: { "user-agent": "MailChimp" },
  deliveryId: null,
  event: "subscribe",
  signsBody: false,
  unsigned: true,
} satisfies PluginFixture;
