/**
 * Google Cloud Pub/Sub push subscriptions with authentication (docs "Authentication for push
 * subscriptions"): Pub/Sub sends `Authorization: Bearer <OIDC token>`, a JWT signed by Google
 * (RS256, keys at https://www.googleapis.com/oauth2/v3/certs), whose `iss` is
 * `accounts.google.com` or `https://accounts.google.com`, `aud` the subscription's audience (by
 * default its push endpoint, this trigger's URL), and `email` the service account the
 * subscription authenticates as, with `email_verified`. Tokens live an hour.
 *
 * The token authenticates the sender, not the body (it signs no part of it). There is no secret:
 * the trigger's settings name the audience and the service account. Redeliveries keep their
 * `message.messageId`; Pub/Sub retries until the message's retention ends (7 days by default).
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import { cannotSign, definePlugin, type AppSettingValue, type FetchRule, type PluginRequest } from "../../src/plugins/index.ts";
import { keyIdOf } from "./key_id.ts";
import { eventTypeOf, messageIdOf, withDecodedData } from "./push_message.ts";

export const GOOGLE_JWKS_URL = "https://www.googleapis.com/oauth2/v3/certs";
const GOOGLE_KEYS: FetchRule = { hosts: /^www\.googleapis\.com$/, purpose: "Google's JWKS" };
const ISSUERS = ["accounts.google.com", "https://accounts.google.com"];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Google signs these tokens with RS256 only; nothing else is taken. */
const ALGORITHMS = ["RS256"];
const TOKEN_LIFETIME_SECONDS = 3600;

const text = (value: AppSettingValue | undefined) => (typeof value === "string" ? value : "");
/** The trigger's URL: the request's, without a query (Pub/Sub's default audience is the push endpoint). */
const triggerUrlOf = (req: Pick<PluginRequest, "url">) => req.url.replace(/\?.*$/s, "");
const bearerToken = (header: string | null) => /^Bearer +([^\s]+)$/i.exec(header ?? "")?.[1] ?? null;

export default definePlugin({
  id: "gcp-pubsub",
  name: "Google Pub/Sub",
  secret: { label: "None needed: Google signs the token (set the audience and service account below)", generated: false },
  settings: [
    {
      key: "audience",
      label: "Audience",
      kind: "text",
      help: "The audience set on the push subscription's authentication; empty: this trigger's URL, Pub/Sub's default.",
    },
    {
      key: "serviceAccountEmail",
      label: "Service account email",
      kind: "text",
      // Optional, as every app setting: until it is set the trigger accepts no push, and Activity says why.
      help: "The service account the push subscription authenticates as. Empty: no push is accepted.",
      check: (email) => (email === "" || EMAIL.test(text(email)) ? null : "is not an email address (e.g. push@my-project.iam.gserviceaccount.com)"),
    },
    {
      key: "jwksUrl",
      label: "JWKS URL",
      kind: "text",
      help: `Where Google's signing keys are; empty: ${GOOGLE_JWKS_URL}. Another only on a host of --provider-fetch-allow (a mirror).`,
      // Refused when saved, rather than failing every delivery.
      check: (url, ctx) => (url === "" ? null : ctx.fetchProblem(text(url), GOOGLE_KEYS)),
    },
  ],
  async verify(req, ctx) {
    const token = bearerToken(req.headers.get("authorization"));
    if (token === null) return false;
    // Any Google service account could mint a token for this URL: without the one named, none passes.
    if (text(ctx.settings.serviceAccountEmail) === "")
      return ctx.refuse("the trigger has no Service account email yet; set the one the push subscription authenticates as");
    // A JWKS host that fails throws ProviderUnavailable: the host answers 503 and Pub/Sub retries.
    const result = await ctx.verifyJwt(token, {
      jwksUrl: text(ctx.settings.jwksUrl) || GOOGLE_JWKS_URL,
      hosts: GOOGLE_KEYS.hosts,
      issuer: ISSUERS,
      audience: text(ctx.settings.audience) || triggerUrlOf(req),
      algorithms: ALGORITHMS,
      // Google writes service account emails in lower case.
      claims: { email: text(ctx.settings.serviceAccountEmail).toLowerCase(), email_verified: true },
    });
    return result.ok;
  },
  deliveryId: (req) => messageIdOf(req.rawBody),
  // Pub/Sub redelivers until the message's retention ends: 7 days unless the topic says more.
  dedupWindowSeconds: 7 * 86400,
  // Pub/Sub has no event type of its own; publishers that set an `eventType` attribute (Cloud Storage) name one.
  event: (_req, body) => eventTypeOf(body),
  decodeBody: (body, _req, { redacting }) => withDecodedData(body, redacting),
  credentialHeaders: ["authorization"],
  /**
   * A token as Pub/Sub would send it, signed with `ctx.secret`: a PEM private key whose public
   * half the trigger's JWKS URL serves (a test double on a --provider-fetch-allow host). Only
   * Google holds the keys of its real tokens.
   */
  async sign(req, ctx) {
    let key: KeyObject;
    try {
      key = createPrivateKey(ctx.secret);
    } catch {
      throw cannotSign(
        "Google signs Pub/Sub's tokens with its own keys: give a test RSA private key (PEM, --key FILE) whose JWKS the trigger's JWKS URL serves",
      );
    }
    const email = text(ctx.settings.serviceAccountEmail);
    if (email === "") throw cannotSign("the trigger has no Service account email to put in the token");
    const now = Math.floor(ctx.now.getTime() / 1000);
    const token = await new SignJWT({ azp: "112233445566778899000", email, email_verified: true, sub: "112233445566778899000" })
      .setProtectedHeader({ alg: "RS256", kid: await keyIdOf(key), typ: "JWT" })
      .setIssuer("https://accounts.google.com")
      .setAudience(text(ctx.settings.audience) || triggerUrlOf(req))
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
      .sign(key);
    return { headers: { Authorization: `Bearer ${token}` } };
  },
});
