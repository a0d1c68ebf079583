/**
 * Slack (Events API, slash commands, interactivity): `X-Slack-Signature: v0=<hex>`, an
 * HMAC-SHA256 of `v0:${X-Slack-Request-Timestamp}:${body}` keyed by the signing secret
 * (Slack docs; `@slack/bolt` `verifySlackRequest`). Bolt rejects requests older than 5 minutes.
 *
 * The Events API `url_verification` call is answered with its challenge, but only once the
 * request authenticates: Slack signs it like any other event.
 */
import { authenticateAppRequest, concatBytes, definePlugin, type InletPlugin, type PluginContext, type PluginRequest } from "../../src/plugins/index.ts";
import { parseJson, stringAt, valueAt } from "../_shared/json.ts";

const SIGNATURE = "x-slack-signature";
const TIMESTAMP_HEADER = "x-slack-request-timestamp";
const TIMESTAMP = /^\d{1,15}$/;

function requestTimestamp(req: PluginRequest): string | null {
  const ts = req.headers.get(TIMESTAMP_HEADER)?.trim() ?? "";
  return TIMESTAMP.test(ts) ? ts : null;
}

function signatureOf(ts: string, rawBody: Uint8Array, ctx: PluginContext): string {
  return "v0=" + ctx.hmac("sha256", ctx.secret, concatBytes("v0:", ts, ":", rawBody), "hex");
}

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
  verify(req, ctx) {
    const given = req.headers.get(SIGNATURE);
    const ts = requestTimestamp(req);
    if (!given || ts === null || !ctx.secret) return false;
    return ctx.timingSafeEqual(given.trim().toLowerCase(), signatureOf(ts, req.rawBody, ctx));
  },
  timestamp(req) {
    const ts = requestTimestamp(req);
    return ts === null ? null : Number(ts);
  },
  toleranceSeconds: 300,
  sign(req, ctx) {
    if (!ctx.secret) throw new TypeError("cannot sign: the Slack signing secret is empty");
    const ts = String(Math.floor(ctx.now.getTime() / 1000));
    return { headers: { "X-Slack-Request-Timestamp": ts, "X-Slack-Signature": signatureOf(ts, req.rawBody, ctx) } };
  },
  credentialHeaders: [SIGNATURE],
  // Events API: event_id is kept when Slack retries (X-Slack-Retry-Num: 1, 2, 3 within minutes).
  // Slash commands and interactivity carry no id and are not retried.
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "event_id"),
  dedupWindowSeconds: 3600,
  event(_req, body) {
    const type = stringAt(body, "type");
    if (type === "event_callback") return stringAt(body, "event", "type");
    return type ?? formEvent(body);
  },
  async handshake(req, ctx) {
    if (req.method !== "POST") return null;
    const body = parseJson(req.rawBody);
    const challenge = stringAt(body, "challenge");
    if (stringAt(body, "type") !== "url_verification" || challenge === null) return null;
    // Not a handshake until it authenticates; the host then answers the forgery with a 401.
    if (!(await authenticateAppRequest(slack, req, ctx)).ok) return null;
    return Response.json({ challenge });
  },
});

export default slack;
