/**
 * Mailchimp Marketing (audience webhooks): unsigned. The trigger URL, with its unguessable token,
 * is the credential, so `verify` accepts every request and there is no secret. Mailchimp checks
 * the URL with a GET when the webhook is saved; that is answered 200.
 *
 * Deliveries carry no id; the host remembers each exact body for an hour instead.
 */
import { definePlugin, stringAt } from "../../src/plugins/index.ts";

const decoder = new TextDecoder();

export default definePlugin({
  id: "mailchimp",
  name: "Mailchimp",
  secret: { label: "None needed: the trigger URL is the credential", generated: false },
  verify: () => true,
  sign: () => ({ headers: {} }),
  credentialHeaders: [],
  contentDedupWindowSeconds: 3600,
  // `subscribe`, `unsubscribe`, `profile`, `upemail`, `cleaned`, `campaign`.
  event: (req, body) =>
    stringAt(body !== null && typeof body === "object" ? body : Object.fromEntries(new URLSearchParams(decoder.decode(req.rawBody))), "type"),
  handshake: (req) => (req.method === "GET" ? new Response(null, { status: 200 }) : null),
});
