/**
 * Amazon SNS, HTTP/S subscriptions (AWS "Verifying the signatures of Amazon SNS messages"). Each
 * message is a JSON body, sent as `text/plain`, signed with AWS's private key: SignatureVersion 1
 * is SHA1withRSA, 2 SHA256withRSA, over the string to sign (see message.ts). The certificate is
 * the one at the message's `SigningCertURL`, fetched only from `https://sns.<region>.amazonaws.com`
 * (or `.com.cn`, or a host of `--provider-fetch-allow`) and only a `.pem` file, and kept a day.
 *
 * There is no shared secret: what makes a message the trigger's is its `TopicArn`, which must be
 * one of the trigger's `Topic ARNs` (checked before anything is fetched). A subscription's
 * `SubscriptionConfirmation` is answered 200 and, with `Auto-confirm subscriptions`, confirmed by
 * fetching its `SubscribeURL`; otherwise its Activity row names that URL for the owner to open.
 */
import { createPrivateKey, randomUUID, sign as signWithKey, type KeyObject } from "node:crypto";
import { cannotSign, definePlugin, type FetchRule, formatTimestamp, parseJson, parseTimestamp, type PluginContext, stringAt } from "../../src/plugins/index.ts";
import { isSnsMessage, missingSignedFields, type SnsMessage, snsMessageOf, stringToSign, textField } from "./message.ts";

/** SNS's regional endpoints, which serve its signing certificates and confirm subscriptions. */
const SNS_HOSTS = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

const CERTIFICATES: FetchRule = {
  hosts: SNS_HOSTS,
  // A certificate file (AWS names its own `SimpleNotificationService-<hex>.pem`): nothing else of those hosts.
  pathPattern: /^\/[^?#]*\.pem$/,
  // AWS rotates them rarely, and a new one comes under a new name.
  cacheSeconds: 86400,
  purpose: "SNS signing certificate",
};

// The host rule alone: the URL comes in a message AWS signed (AWS's own are `/?Action=ConfirmSubscription&…`).
const CONFIRMATIONS: FetchRule = { hosts: SNS_HOSTS, pathPattern: /^\//, cacheSeconds: 0, purpose: "SNS subscription confirmation" };

const ALGORITHMS = { "1": "RSA-SHA1", "2": "RSA-SHA256" } as const;
const DIGESTS = { "1": "sha1", "2": "sha256" } as const;

/** `arn:aws:sns:<region>:<account>:<topic>` (also the China and GovCloud partitions; FIFO topics end in `.fifo`). */
const TOPIC_ARN = /^arn:aws(-cn|-us-gov)?:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;
const ARN_SHAPE = "arn:aws:sns:<region>:<account>:<topic>";

const encoder = new TextEncoder();

const listedTopics = (ctx: PluginContext): readonly string[] => (Array.isArray(ctx.settings.topicArns) ? ctx.settings.topicArns : []);

/** The URL without its query (a SubscribeURL's token stays out of what is shown about a fetch). */
function withoutQuery(text: string): string {
  try {
    const url = new URL(text);
    return `${url.origin}${url.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** The message's signature checked with the certificate its `SigningCertURL` names; false for anything malformed. */
async function signatureHolds(message: SnsMessage, ctx: PluginContext): Promise<boolean> {
  const version = textField(message, "SignatureVersion");
  const signed = stringToSign(message);
  const certificateUrl = textField(message, "SigningCertURL");
  const encoded = textField(message, "Signature");
  if ((version !== "1" && version !== "2") || signed === null || certificateUrl === null || !encoded) return false;
  let signature: Uint8Array;
  try {
    signature = ctx.base64.decode(encoded);
  } catch {
    return false;
  }
  let certificate: string;
  try {
    certificate = await ctx.fetchText(certificateUrl, CERTIFICATES);
  } catch (error) {
    // A certificate from anywhere else is a forgery: nothing was fetched, and the host notes why.
    if ((error as { code?: unknown })?.code === "provider_fetch_refused") return false;
    throw error; // ProviderUnavailable: a 503, and SNS retries
  }
  return ctx.verifyRsa(ALGORITHMS[version], certificate, signed, signature);
}

/** GETs the SubscribeURL of a verified SubscriptionConfirmation, which confirms the subscription. */
async function confirmSubscription(message: SnsMessage, ctx: PluginContext): Promise<string> {
  const subscribeUrl = textField(message, "SubscribeURL") ?? "";
  await ctx.confirmUrl(subscribeUrl, CONFIRMATIONS);
  return withoutQuery(subscribeUrl);
}

/** `Message` parsed when it holds a JSON object or array (SNS carries events of other AWS services so). */
function expandedMessage(message: unknown): unknown {
  if (typeof message !== "string" || !/^\s*[{[]/.test(message)) return undefined;
  const parsed = parseJson(encoder.encode(message));
  return parsed !== null && typeof parsed === "object" ? parsed : undefined;
}

function privateKeyOf(text: string): KeyObject {
  if (!text.trim()) {
    throw cannotSign(
      "SNS messages are signed with AWS's private key, which inlet does not have; to test, give the private key of a test certificate (--key FILE) that the message's SigningCertURL serves from a --provider-fetch-allow host",
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch (error) {
    throw cannotSign(`the signing key is not a private key (${(error as Error).message})`);
  }
  if (key.asymmetricKeyType !== "rsa") throw cannotSign(`an SNS signing key is RSA, not ${key.asymmetricKeyType}`);
  return key;
}

export default definePlugin({
  id: "aws-sns",
  name: "AWS SNS",
  secret: { label: "None needed: AWS signs with its certificate; list the Topic ARNs", generated: false },
  settings: [
    {
      key: "topicArns",
      label: "Topic ARNs",
      kind: "lines",
      // Optional, as every app setting: until one is listed the trigger accepts no message, and Activity says why.
      help: `The SNS topics this trigger accepts, one ARN per line (${ARN_SHAPE}). None: no message is accepted.`,
      checkLine: (arn) => (TOPIC_ARN.test(arn) ? null : `is not an SNS topic ARN (${ARN_SHAPE})`),
    },
    {
      key: "autoConfirm",
      label: "Auto-confirm subscriptions",
      kind: "switch",
      default: false,
      help: "Confirm a new subscription by fetching its SubscribeURL once its signed confirmation arrives; off: open the URL shown in Activity.",
    },
  ],
  async verify(req, ctx) {
    const message = snsMessageOf(req.rawBody);
    if (message === null) return false;
    const declared = req.headers.get("x-amz-sns-message-type");
    if (declared !== null && declared !== message.Type) return false;
    // Before anything is fetched: a message for another topic costs no fetch, whoever signed it.
    const topic = textField(message, "TopicArn");
    if (topic === null) return false;
    if (listedTopics(ctx).length === 0) return ctx.refuse(`topic ${topic}: the trigger lists no Topic ARNs yet; add the topics it accepts`);
    if (!listedTopics(ctx).includes(topic)) return ctx.refuse(`topic ${topic} is not one of the trigger's Topic ARNs`);
    return signatureHolds(message, ctx);
  },
  // Signed with the message. SNS retries a delivery for at most an hour (its hard limit), with the
  // same Timestamp; six hours leave room for throttled deliveries, and a captured message replayed
  // later is refused rather than run again once its MessageId is forgotten (a day).
  timestamp: (req) => {
    const message = snsMessageOf(req.rawBody);
    return message === null ? null : parseTimestamp(textField(message, "Timestamp"), "rfc3339");
  },
  toleranceSeconds: 6 * 3600,
  deliveryId: (req) => stringAt(parseJson(req.rawBody), "MessageId"),
  dedupWindowSeconds: 86400,
  // From the raw message, as deliveryId: SNS sends it as text/plain, whatever the body was parsed as.
  event: (req) => snsMessageOf(req.rawBody)?.Type ?? null,
  // SNS sends its JSON as text/plain, so the host's parse is the text: the message is the shared
  // parse of the raw bytes (numbers exact), with Message parsed when it holds JSON. Nothing of the
  // text is kept beside it, so redaction sees all there is.
  decodeBody(body, req) {
    const message = snsMessageOf(req.rawBody);
    if (message === null) return body;
    const parsed = expandedMessage(message.Message);
    return parsed === undefined ? message : { ...message, Message: parsed };
  },
  // Asked only once the message verified; a Notification is none.
  async handshake(req, ctx) {
    if (req.method !== "POST") return null;
    const message = snsMessageOf(req.rawBody);
    if (message === null || message.Type === "Notification") return null;
    const topic = textField(message, "TopicArn");
    const subscribeUrl = textField(message, "SubscribeURL");
    const response = Response.json({ received: true });
    if (message.Type === "UnsubscribeConfirmation") {
      return { response, detail: `SNS subscription to ${topic} deleted (UnsubscribeConfirmation); to subscribe again, open ${subscribeUrl}; no run` };
    }
    if (ctx.settings.autoConfirm === true) {
      const confirmed = await confirmSubscription(message, ctx);
      return { response, detail: `SNS subscription to ${topic} confirmed (GET ${confirmed}); no run` };
    }
    return {
      response,
      detail: `SNS subscription to ${topic} awaits confirmation: open ${subscribeUrl} (or turn on Auto-confirm subscriptions and have SNS resend the confirmation); no run`,
    };
  },
  credentialHeaders: [],
  /**
   * Signs a message as SNS would, with a test key (`ctx.secret`: an RSA private key in PEM) whose
   * certificate the message's `SigningCertURL` serves: stamps `Timestamp` with now, fills a missing
   * `Type` (Notification), `MessageId` and `SignatureVersion` (2), and puts `Signature` in the body.
   */
  sign(req, ctx) {
    const key = privateKeyOf(ctx.secret);
    const parsed = parseJson(req.rawBody);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw cannotSign("an SNS message is a JSON object");
    const given = parsed as Record<string, unknown>;
    const version = given.SignatureVersion === "1" ? "1" : "2";
    const message = { Type: "Notification", MessageId: randomUUID(), ...given, Timestamp: formatTimestamp(ctx.now, "rfc3339"), SignatureVersion: version };
    if (!isSnsMessage(message))
      throw cannotSign(`an SNS message's Type is Notification, SubscriptionConfirmation or UnsubscribeConfirmation, not ${JSON.stringify(message.Type)}`);
    const missing = missingSignedFields(message);
    if (missing.length > 0) throw cannotSign(`an SNS ${message.Type} needs ${missing.join(", ")}`);
    if (textField(message, "SigningCertURL") === null)
      throw cannotSign("the message names no SigningCertURL: where the certificate of the signing key is served");
    const signature = signWithKey(DIGESTS[version], Buffer.from(stringToSign(message)!, "utf8"), key).toString("base64");
    return { headers: {}, rawBody: encoder.encode(JSON.stringify({ ...message, Signature: signature })) };
  },
});
