/**
 * Discord (interactions endpoint and app Webhook Events): Ed25519 over `${timestamp}${body}`,
 * signature hex in `X-Signature-Ed25519`, timestamp in `X-Signature-Timestamp`; the appSecret is
 * the application's hex "Public Key" (`discord-interactions` `verifyKey`).
 *
 * PINGs are declared handshakes, which the host answers only after they verify: Discord
 * deliberately sends badly signed PINGs and rejects an endpoint that does not answer those with 401.
 */
import { definePlugin, type InletPlugin, parseJson, signedTimestampRecipe, stringAt, valueAt } from "../../src/plugins/index.ts";

/** Interaction types (Discord "Receiving and Responding"), for `$trigger.app.event`. */
const INTERACTION_TYPES: Record<number, string> = {
  1: "PING",
  2: "APPLICATION_COMMAND",
  3: "MESSAGE_COMPONENT",
  4: "APPLICATION_COMMAND_AUTOCOMPLETE",
  5: "MODAL_SUBMIT",
};

/** App Webhook Events carry `event`; interactions do not. */
function isWebhookEvent(body: unknown): boolean {
  return valueAt(body, "event") !== undefined;
}

const discord: InletPlugin = definePlugin({
  id: "discord",
  name: "Discord",
  secret: { label: "Application public key (hex)", generated: false },
  // sign() takes the private key: a 32-byte seed as 64 hex digits, or a PKCS#8 PEM.
  ...signedTimestampRecipe({
    header: "X-Signature-Ed25519",
    timestampHeader: "X-Signature-Timestamp",
    layout: "{timestamp}{body}",
    signature: { scheme: "ed25519", encoding: "hex", publicKey: "hex" },
    // The SDK checks no age. Interactions are never retried and must be answered within 3 s, so
    // 5 minutes costs nothing and stops a captured request from being replayed later.
    toleranceSeconds: 300,
  }),
  // An interaction's snowflake `id`. App Webhook Events have no id: their exact body is
  // remembered instead, for an hour.
  deliveryId: (req) => {
    const body = parseJson(req.rawBody);
    return isWebhookEvent(body) ? null : stringAt(body, "id");
  },
  dedupWindowSeconds: 3600,
  contentDedupWindowSeconds: 3600,
  event(_req, body) {
    if (isWebhookEvent(body)) return stringAt(body, "event", "type");
    const type = valueAt(body, "type");
    return typeof type === "number" ? (INTERACTION_TYPES[type] ?? String(type)) : null;
  },
  handshakes: [
    // An interaction PING wants a PONG (type 1).
    {
      when: [
        { field: ["type"], equals: 1 },
        { field: ["event"], present: false },
      ],
      reply: { json: { type: 1 } },
    },
    // A Webhook Events PING (type 0, no event) wants an empty 204.
    {
      when: [
        { field: ["type"], equals: 0 },
        { field: ["event"], present: false },
        { field: ["application_id"], present: true },
      ],
      reply: { status: 204 },
    },
  ],
});

export default discord;
