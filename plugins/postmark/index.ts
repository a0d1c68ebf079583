/**
 * Postmark: no signature. The webhook URL carries HTTP Basic credentials
 * (`https://user:password@…`), which Postmark sends as `Authorization: Basic …`; the appSecret is
 * that `user:password`. The body is not covered (the fixture says `signsBody: false`).
 */
import { cannotSign, definePlugin, stringAt, valueAt } from "../../src/plugins/index.ts";

const BASIC = /^basic\s+(\S+)\s*$/i;
const decoder = new TextDecoder("utf-8", { fatal: true });

export default definePlugin({
  id: "postmark",
  name: "Postmark",
  secret: { label: "Basic auth credentials (user:password)", generated: false },
  verify(req, ctx) {
    const match = BASIC.exec(req.headers.get("authorization") ?? "");
    if (!match || !ctx.secret) return false;
    let credentials: string;
    try {
      credentials = decoder.decode(ctx.base64.decode(match[1]));
    } catch {
      return false;
    }
    return ctx.timingSafeEqual(credentials, ctx.secret);
  },
  sign(_req, ctx) {
    if (!ctx.secret) throw cannotSign("the Postmark credentials are empty");
    return { headers: { Authorization: "Basic " + ctx.base64.encode(new TextEncoder().encode(ctx.secret)) } };
  },
  credentialHeaders: ["authorization"],
  // No delivery id. Postmark retries up to 10 times over about 10.5 hours with the same body,
  // so the exact body is remembered for 12 hours.
  contentDedupWindowSeconds: 43200,
  // `Delivery`, `Bounce`, `Open`, `Click`, `SpamComplaint`, `SubscriptionChange`; inbound mail
  // has no RecordType.
  event: (_req, body) => stringAt(body, "RecordType") ?? (valueAt(body, "FromFull") !== undefined ? "Inbound" : null),
});
