import type { PluginFixture } from "../../src/plugins/index.ts";

// A test P-256 key pair: the appSecret is the base64 DER public key SendGrid shows as the
// "Verification Key"; signingKey is its private key (SendGrid never reveals its own).
export default {
  appSecret: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEaTB3piCzG6TvPiFkgS4rCaPJ+ToqIIZE+6ksTz8rGSFRKkLMGHfJCSJRlYql3D/a4hWWXLCd7j8YrSCk10vVTw==",
  signingKey: [
    "-----BEGIN PRIVATE KEY-----",
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgDugJ/00WwaR079nw",
    "Zrbcz1gG39QWUA0lvto9jWtbl2uhRANCAARpMHemILMbpO8+IWSBLisJo8n5Oiog",
    "hkT7qSxPPysZIVEqQswYd8kJIlGViqXcP9riFZZcsJ3uPxitIKTXS9VP",
    "-----END PRIVATE KEY-----",
    "",
  ].join("\n"),
  body: JSON.stringify([
    {
      email: "ada@example.com",
      timestamp: 1749999990,
      "smtp-id": "<14c5d75ce93.dfd.64b469@ismtpd-555>",
      event: "delivered",
      category: ["receipts"],
      sg_event_id: "ZGVsaXZlcmVkLTAtMjQ2NTU5NjQtMWZhYzY1",
      sg_message_id: "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0",
      response: "250 OK",
    },
    {
      email: "ada@example.com",
      timestamp: 1749999998,
      event: "open",
      category: ["receipts"],
      sg_event_id: "b3Blbi0xLTI0NjU1OTY0LTFmYWM2NQ",
      sg_message_id: "14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0",
      useragent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)",
      ip: "203.0.113.7",
    },
  ]),
  headers: { "user-agent": "SendGrid Event API" },
  // Two events: a digest of their sorted sg_event_ids (one event would give its own id).
  deliveryId: "sha256:7a652597f9245ec96265ecbc29bf99c4896e43ffbc77a7340471ef6336870362",
  event: "delivered,open",
} satisfies PluginFixture;
