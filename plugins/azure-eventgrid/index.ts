/**
 * Azure Event Grid (webhook event handlers): Event Grid signs nothing. The credential is a key
 * inlet generates, which the subscription sends back either in the endpoint URL as `?code=<key>`
 * ("client secret as a query parameter") or as a delivery attribute header `aeg-sas-key`; either
 * must equal the trigger's secret, compared in constant time.
 *
 * Before delivering, Event Grid proves the endpoint wants its events (Microsoft Learn, "Webhook
 * event delivery"):
 * - Event Grid schema: a POST whose array holds a `Microsoft.EventGrid.SubscriptionValidationEvent`,
 *   answered `{"validationResponse": <data.validationCode>}`;
 * - CloudEvents v1.0 schema: an `OPTIONS` request with `WebHook-Request-Origin`, answered with
 *   `WebHook-Allowed-Origin` (that origin) and `WebHook-Allowed-Rate: *`.
 * Both come with the key like any delivery, and the host answers them only once it verifies
 * (`handshakeMethods` brings the OPTIONS through verification to `handshake()`).
 *
 * Event Grid schema bodies are arrays of events; CloudEvents bodies are one event
 * (`application/cloudevents+json`) or an array (`application/cloudevents-batch+json`), both JSON.
 */
import { cannotSign, definePlugin, parseJson, stringAt, timingSafeAnyOf, type PluginContext, type PluginRequest } from "../../src/plugins/index.ts";

const KEY_HEADER = "aeg-sas-key";
const KEY_QUERY = "code";
const VALIDATION_EVENT = "Microsoft.EventGrid.SubscriptionValidationEvent";

/** The events of a body: an array's items, or the one event a CloudEvents structured body is. */
function eventsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  return body !== null && typeof body === "object" ? [body] : [];
}

/** The keys a request offers: the `aeg-sas-key` header and the `?code=` parameter, where present. */
function offeredKeys(req: PluginRequest): string[] {
  const keys: string[] = [];
  const header = req.headers.get(KEY_HEADER);
  if (header) keys.push(header);
  try {
    const code = new URL(req.url).searchParams.get(KEY_QUERY);
    if (code) keys.push(code);
  } catch {
    // Not a URL: no key in it.
  }
  return keys;
}

/** Whether the request carries the trigger's key (an empty secret never matches). */
function hasKey(req: PluginRequest, ctx: PluginContext): boolean {
  return ctx.secret !== "" && timingSafeAnyOf(offeredKeys(req), ctx.secret);
}

/** The `validationCode` of an Event Grid subscription validation event in the body, else `null`. */
function validationCode(body: unknown): string | null {
  for (const event of eventsOf(body)) {
    if (stringAt(event, "eventType") === VALIDATION_EVENT) return stringAt(event, "data", "validationCode");
  }
  return null;
}

export default definePlugin({
  id: "azure-eventgrid",
  name: "Azure Event Grid",
  // Event Grid sends back whatever key the subscription is given: inlet generates a strong one.
  secret: { label: "Delivery key", generated: true },
  verify: hasKey,
  sign(_req, ctx) {
    if (!ctx.secret) throw cannotSign("the Event Grid delivery key is empty");
    return { headers: { [KEY_HEADER]: ctx.secret } };
  },
  credentialHeaders: [KEY_HEADER],
  credentialQuery: [KEY_QUERY],
  handshakeMethods: ["OPTIONS"],
  // The host asks for a POST or an OPTIONS only once the key verified, and asks whether an
  // unverified request would be one (report-only triggers refuse it then): so no key check here.
  // GET and HEAD, which the host asks unverified, are never answered.
  handshake(req) {
    if (req.method !== "POST" && req.method !== "OPTIONS") return null;
    if (req.method === "OPTIONS") {
      const origin = req.headers.get("webhook-request-origin");
      if (!origin) return null;
      return new Response(null, {
        status: 200,
        headers: { "WebHook-Allowed-Origin": origin, "WebHook-Allowed-Rate": "*", Allow: "POST, OPTIONS" },
      });
    }
    const code = validationCode(parseJson(req.rawBody));
    return code === null ? null : Response.json({ validationResponse: code });
  },
  // Each event's `id` is kept on every retry; a batch is its ids, sorted, joined by "," (one id
  // missing: none, rather than a key that two different batches could share).
  deliveryId(req) {
    const ids = eventsOf(parseJson(req.rawBody)).map((event) => stringAt(event, "id"));
    if (ids.length === 0 || ids.includes(null)) return null;
    return (ids as string[]).sort().join(",");
  },
  // Event Grid retries for up to its event time-to-live, at most 24 hours.
  dedupWindowSeconds: 86400,
  // `eventType` in the Event Grid schema, `type` in CloudEvents; a batch is named by its first event.
  event: (_req, body) => {
    const [first] = eventsOf(body);
    return stringAt(first, "eventType") ?? stringAt(first, "type");
  },
});
