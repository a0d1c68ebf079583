/**
 * Slack (Events API, slash commands, interactivity): `X-Slack-Signature: v0=<hex>`, an
 * HMAC-SHA256 of `v0:${X-Slack-Request-Timestamp}:${body}` keyed by the signing secret
 * (Slack docs; `@slack/bolt` `verifySlackRequest`). Bolt rejects requests older than 5 minutes.
 *
 * The Events API `url_verification` call is answered with its challenge, declared as data: the
 * host answers it only once the request authenticates (Slack signs it like any other event).
 */
import { definePlugin, type InletPlugin, parseJson, signedTimestampRecipe, stringAt, valueAt } from "../../src/plugins/index.ts";

/** Event type of a form body: interactivity's `payload.type`, or a slash command's name. */
function formEvent(fields: unknown): string | null {
  const payload = valueAt(fields, "payload");
  if (typeof payload === "string") {
    try {
      return stringAt(JSON.parse(payload), "type");
    } catch {
      return null;
    }
  }
  return stringAt(fields, "command");
}

const slack: InletPlugin = definePlugin({
  id: "slack",
  name: "Slack",
  secret: { label: "Signing secret", generated: false },
  ...signedTimestampRecipe({
    header: "X-Slack-Signature",
    timestampHeader: "X-Slack-Request-Timestamp",
    prefix: "v0=",
    layout: "v0:{timestamp}:{body}",
    signature: { hmac: "sha256", encoding: "hex" },
    toleranceSeconds: 300,
  }),
  // Events API: event_id is kept when Slack retries (X-Slack-Retry-Num: 1, 2, 3 within minutes).
  // Slash commands and interactivity carry no id and are not retried.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "event_id"),
  dedupWindowSeconds: 3600,
  event(_req, body) {
    const type = stringAt(body, "type");
    if (type === "event_callback") return stringAt(body, "event", "type");
    return type ?? formEvent(body);
  },
  handshakes: [{ when: [{ field: ["type"], equals: "url_verification" }], reply: { echo: ["challenge"], as: "json", key: "challenge" } }],
});

export default slack;
