/**
 * Twilio: `X-Twilio-Signature`, base64 HMAC-SHA1 keyed by the Auth Token over the full URL
 * (query included) followed by every POST parameter sorted by name as `name+value` (a repeated
 * name: its distinct values sorted, each appended). JSON bodies are signed through the URL
 * instead: Twilio appends `bodySHA256=<hex sha256(body)>`, signs the URL alone, and the body must
 * match that hash (`twilio` SDK `validateRequest` / `validateRequestWithBody`).
 *
 * `req.url` is the public URL inlet builds from `--base-url`; like the SDK, the URL is also tried
 * with its default port added and with its port removed.
 */
import { cannotSign, definePlugin, parseJson, type PluginContext, timingSafeAnyOf, valueAt } from "../../src/plugins/index.ts";

const SIGNATURE = "x-twilio-signature";
const decoder = new TextDecoder();

/** POST parameters by name, every value of a repeated name kept. */
function formParams(rawBody: Uint8Array): Map<string, string[]> {
  const params = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(decoder.decode(rawBody))) {
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}

/** What Twilio signs: the URL, then each parameter (names sorted) as name+value. */
function signedString(url: string, params: Map<string, string[]>): string {
  let out = url;
  for (const name of [...params.keys()].sort()) {
    for (const value of [...new Set(params.get(name))].sort()) out += name + value;
  }
  return out;
}

/** The URL as given, without its port, and with the scheme's default port (as the SDK tries). */
function urlVariants(url: string): string[] {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!match) return [url];
  const [, scheme, authority, rest] = match;
  const at = authority.lastIndexOf("@") + 1;
  const userInfo = authority.slice(0, at);
  const hostPort = authority.slice(at);
  const colon = hostPort.indexOf(":", hostPort.lastIndexOf("]") + 1);
  const host = colon === -1 ? hostPort : hostPort.slice(0, colon);
  const defaultPort = scheme.toLowerCase() === "https://" ? ":443" : ":80";
  return [...new Set([url, scheme + userInfo + host + rest, scheme + userInfo + host + (colon === -1 ? defaultPort : hostPort.slice(colon)) + rest])];
}

/** The `bodySHA256` query value, or `null` when the URL has none (a form request). */
function bodyHashParam(url: string): string | null {
  try {
    return new URL(url).searchParams.get("bodySHA256");
  } catch {
    return null;
  }
}

function signatureOf(data: string, ctx: PluginContext): string {
  return ctx.hmac("sha1", ctx.secret, data, "base64");
}

/** Where each kind of callback names what happened (Event Streams, Messaging, Voice). */
const EVENT_FIELDS = ["EventType", "type", "MessageStatus", "SmsStatus", "CallStatus"];

const isJson = (contentType: string | null) => /[/+]json\b/i.test(contentType ?? "");

export default definePlugin({
  id: "twilio",
  name: "Twilio",
  secret: { label: "Auth Token", generated: false },
  verify(req, ctx) {
    const given = req.headers.get(SIGNATURE)?.trim();
    if (!given || !ctx.secret) return false;
    const bodyHash = bodyHashParam(req.url);
    const params = bodyHash === null ? formParams(req.rawBody) : new Map<string, string[]>();
    // Every variant is computed and compared, so the time taken does not reveal which matched.
    let ok = timingSafeAnyOf(
      urlVariants(req.url).map((url) => signatureOf(signedString(url, params), ctx)),
      given,
    );
    if (bodyHash !== null && !ctx.timingSafeEqual(bodyHash.toLowerCase(), ctx.hash("sha256", req.rawBody, "hex"))) ok = false;
    return ok;
  },
  sign(req, ctx) {
    if (!ctx.secret) throw cannotSign("the Twilio Auth Token is empty");
    if (bodyHashParam(req.url) === null && isJson(req.headers.get("content-type"))) {
      const url = `${req.url}${req.url.includes("?") ? "&" : "?"}bodySHA256=${ctx.hash("sha256", req.rawBody, "hex")}`;
      return { headers: { "X-Twilio-Signature": signatureOf(url, ctx) }, url };
    }
    const params = bodyHashParam(req.url) === null ? formParams(req.rawBody) : new Map<string, string[]>();
    return { headers: { "X-Twilio-Signature": signatureOf(signedString(req.url, params), ctx) } };
  },
  credentialHeaders: [SIGNATURE],
  // I-Twilio-Idempotency-Token is repeated when Twilio retries a callback (connection-override
  // retries happen within seconds). Without it there is no delivery id, and no content
  // deduplication either: a <Redirect> loop legitimately posts the same parameters again.
  deliveryId: (req) => req.headers.get("i-twilio-idempotency-token") || null,
  dedupWindowSeconds: 86400,
  event(req, body) {
    // The host hands over the parsed body; read the raw one when it could not parse it.
    let fields = body;
    if (fields === null || typeof fields !== "object") {
      fields = isJson(req.headers.get("content-type")) ? parseJson(req.rawBody) : Object.fromEntries(formParams(req.rawBody));
    }
    for (const name of EVENT_FIELDS) {
      const value = valueAt(fields, name);
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === "string" && first !== "") return first;
    }
    return null;
  },
});
