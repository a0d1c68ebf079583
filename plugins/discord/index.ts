/**
 * Discord (interactions endpoint and app Webhook Events): Ed25519 over `${timestamp}${body}`,
 * signature hex in `X-Signature-Ed25519`, timestamp in `X-Signature-Timestamp`; the appSecret is
 * the application's hex "Public Key" (`discord-interactions` `verifyKey`).
 *
 * PINGs are answered only after they verify: Discord deliberately sends badly signed PINGs and
 * rejects an endpoint that does not answer those with 401.
 */
import { createPrivateKey, sign as signAsymmetric, type KeyObject } from "node:crypto";
import { authenticateAppRequest, concatBytes, definePlugin, type InletPlugin, type PluginRequest } from "../../src/plugins/index.ts";
import { parseJson, stringAt, valueAt } from "../_shared/json.ts";

const SIGNATURE = "x-signature-ed25519";
const TIMESTAMP_HEADER = "x-signature-timestamp";
const TIMESTAMP = /^\d{1,15}$/;
const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;
const SEED_HEX = /^[0-9a-fA-F]{64}$/;
// DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** Interaction types (Discord "Receiving and Responding"), for `$trigger.app.event`. */
const INTERACTION_TYPES: Record<number, string> = {
  1: "PING",
  2: "APPLICATION_COMMAND",
  3: "MESSAGE_COMPONENT",
  4: "APPLICATION_COMMAND_AUTOCOMPLETE",
  5: "MODAL_SUBMIT",
};

function requestTimestamp(req: PluginRequest): string | null {
  const ts = req.headers.get(TIMESTAMP_HEADER)?.trim() ?? "";
  return TIMESTAMP.test(ts) ? ts : null;
}

/** The signing key: a 32-byte seed as 64 hex digits, or a PKCS#8 PEM. */
function privateKey(secret: string): KeyObject {
  const text = secret.trim();
  if (SEED_HEX.test(text)) {
    return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(text, "hex")]), format: "der", type: "pkcs8" });
  }
  const key = createPrivateKey(text);
  if (key.asymmetricKeyType !== "ed25519") throw new TypeError(`a Discord signing key must be Ed25519, not ${key.asymmetricKeyType}`);
  return key;
}

/** App Webhook Events carry `event`; interactions do not. */
function isWebhookEvent(body: unknown): boolean {
  return valueAt(body, "event") !== undefined;
}

const discord: InletPlugin = definePlugin({
  id: "discord",
  name: "Discord",
  secret: { label: "Application public key (hex)", generated: false },
  verify(req, ctx) {
    const given = req.headers.get(SIGNATURE)?.trim() ?? "";
    const ts = requestTimestamp(req);
    if (!SIGNATURE_HEX.test(given) || ts === null) return false;
    let publicKey: Uint8Array;
    try {
      publicKey = ctx.hex.decode(ctx.secret.trim());
    } catch {
      return false;
    }
    return ctx.verifySignature("ed25519", publicKey, concatBytes(ts, req.rawBody), ctx.hex.decode(given));
  },
  timestamp(req) {
    const ts = requestTimestamp(req);
    return ts === null ? null : Number(ts);
  },
  // The SDK checks no age. Interactions are never retried and must be answered within 3 s, so
  // 5 minutes costs nothing and stops a captured request from being replayed later.
  toleranceSeconds: 300,
  sign(req, ctx) {
    const ts = String(Math.floor(ctx.now.getTime() / 1000));
    const signature = signAsymmetric(null, concatBytes(ts, req.rawBody), privateKey(ctx.secret));
    return { headers: { "X-Signature-Ed25519": signature.toString("hex"), "X-Signature-Timestamp": ts } };
  },
  credentialHeaders: [SIGNATURE],
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
  async handshake(req, ctx) {
    if (req.method !== "POST") return null;
    const body = parseJson(req.rawBody);
    const type = valueAt(body, "type");
    const interactionPing = type === 1 && !isWebhookEvent(body);
    const webhookEventPing = type === 0 && valueAt(body, "event") === undefined && valueAt(body, "application_id") !== undefined;
    if (!interactionPing && !webhookEventPing) return null;
    if (!(await authenticateAppRequest(discord, req, ctx)).ok) return null;
    // Interactions want a PONG (type 1); Webhook Events want an empty 204.
    return interactionPing ? Response.json({ type: 1 }) : new Response(null, { status: 204 });
  },
});

export default discord;
