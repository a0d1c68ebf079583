import { afterAll, describe, expect, test } from "bun:test";
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { SignJWT, UnsecuredJWT } from "jose";
import {
  authenticateAppRequest,
  fetchRuleProblem,
  pluginContext,
  resolveAppSettings,
  settingsWithDefaults,
  ProviderUnavailable,
  type InletPlugin,
  type PluginRequest,
} from "../../src/plugins/index.ts";
import { KeyFetchGate } from "../../src/auth/key_fetch_gate.ts";
import { ProviderFetch } from "../../src/plugins/provider_fetch.ts";
import { requestOf, TRIGGER_URL } from "../_shared/test_support.ts";
import fixture from "./fixture.ts";
import { googleStandIn } from "./google_stand_in.ts";
import pubsubPlugin, { GOOGLE_JWKS_URL } from "./index.ts";
import { keyIdOf } from "./key_id.ts";
import { decodeData, withDecodedData } from "./push_message.ts";

const pubsub: InletPlugin = pubsubPlugin;
const NOW = new Date(1_750_000_000_000);
const unix = Math.floor(NOW.getTime() / 1000);
const EMAIL = "pubsub-push@acme-prod.iam.gserviceaccount.com";
const google = await googleStandIn();
afterAll(() => google.stop());
const signingKey = createPrivateKey(google.privatePem);

/** The context the host gives the trigger's hooks: its settings, a fetcher allowing the stand-in, a pinned clock. */
function contextFor(settings: Record<string, string> = {}, providerFetch = google.providerFetch()) {
  return pluginContext("", NOW, false, {
    settings: settingsWithDefaults(pubsub.settings, { serviceAccountEmail: EMAIL, jwksUrl: google.jwksUrl, ...settings }),
    providerFetch,
  });
}

/** A token laid out as Google's documentation shows Pub/Sub's (header and claims), signed here with jose. */
async function googleToken(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}, key = signingKey) {
  return new SignJWT({
    aud: TRIGGER_URL,
    azp: "113774264463038321964",
    email: EMAIL,
    sub: "113774264463038321964",
    email_verified: true,
    iss: "https://accounts.google.com",
    iat: unix,
    exp: unix + 3600,
    ...claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: await keyIdOf(key), typ: "JWT", ...header })
    .sign(key);
}
const push = (token: string | null, body = fixture.body, url = TRIGGER_URL): PluginRequest =>
  requestOf({ url, body, headers: { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }) } });
const authenticate = (req: PluginRequest, ctx = contextFor()) => authenticateAppRequest(pubsub, req, ctx);

describe("gcp-pubsub plugin: the push's OIDC token", () => {
  test("a token as Google documents it, for this trigger's URL and service account, is accepted; either issuer spelling", async () => {
    expect(await authenticate(push(await googleToken()))).toEqual({ ok: true });
    expect(await authenticate(push(await googleToken({ iss: "accounts.google.com" })))).toEqual({ ok: true });
    // The default audience is the trigger's URL, without a query the request may carry.
    expect(await authenticate(push(await googleToken(), fixture.body, `${TRIGGER_URL}?x=1`))).toEqual({ ok: true });
    // A service account email typed in capitals still matches Google's lower-case claim.
    expect(await authenticate(push(await googleToken()), contextFor({ serviceAccountEmail: EMAIL.toUpperCase() }))).toEqual({ ok: true });
  });

  test("appSettings.audience replaces the trigger's URL as the expected audience", async () => {
    const ctx = contextFor({ audience: "https://hooks.acme.example/pubsub" });
    expect(await authenticate(push(await googleToken({ aud: "https://hooks.acme.example/pubsub" })), ctx)).toEqual({ ok: true });
    expect((await authenticate(push(await googleToken()), ctx)).ok).toBe(false);
  });

  test("each refusal is a failed verification whose reason names what failed", async () => {
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const cases: Array<[string, string | null, RegExp]> = [
      ["no token", null, /^gcp-pubsub signature missing or invalid$/],
      [
        "alg none",
        new UnsecuredJWT({ aud: TRIGGER_URL, email: EMAIL, email_verified: true, iss: "https://accounts.google.com", exp: unix + 60 }).encode(),
        /JWT refused: (algorithm not allowed|refused)/,
      ],
      ["unknown kid", await googleToken({}, {}, other), /unknown kid/],
      ["a known kid, another key", await googleToken({}, { kid: await keyIdOf(signingKey) }, other), /signature does not verify/],
      ["expired", await googleToken({ iat: unix - 7200, exp: unix - 3600 }), /JWT refused: expired/],
      ["wrong audience", await googleToken({ aud: "https://inlet.example.com/webhooks/another" }), /unexpected "aud"/],
      ["wrong issuer", await googleToken({ iss: "https://evil.example" }), /unexpected "iss"/],
      [
        "wrong email",
        await googleToken({ email: "someone@evil-project.iam.gserviceaccount.com" }),
        /"email" is "someone@evil-project.iam.gserviceaccount.com", not "pubsub-push@acme-prod.iam.gserviceaccount.com"/,
      ],
      ["unverified email", await googleToken({ email_verified: false }), /"email_verified" is false, not true/],
      [
        "no exp",
        await new SignJWT({ aud: TRIGGER_URL, email: EMAIL, email_verified: true, iss: "https://accounts.google.com" })
          .setProtectedHeader({ alg: "RS256", kid: await keyIdOf(signingKey) })
          .sign(signingKey),
        /"exp"/,
      ],
    ];
    for (const [what, token, reason] of cases) {
      const result = await authenticate(push(token));
      expect({ what, ok: result.ok }).toEqual({ what, ok: false });
      expect({ what, reason: result.ok ? "" : result.reason }).toEqual({ what, reason: expect.stringMatching(reason) });
    }
  });

  test("without a Service account email (optional when saved) every push is refused, the reason saying to set it", async () => {
    const result = await authenticate(push(await googleToken()), contextFor({ serviceAccountEmail: "" }));
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("the trigger has no Service account email yet") });
  });

  test("a Basic or malformed Authorization is refused without fetching anything", async () => {
    const before = google.hits.length;
    for (const value of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "bearer not-a-jwt"]) {
      expect((await authenticate(requestOf({ body: fixture.body, headers: { authorization: value } }))).ok).toBe(false);
    }
    expect(google.hits.length).toBe(before);
  });

  test("the JWKS defaults to Google's (https on www.googleapis.com, allowed with no flag)", async () => {
    // A gate that answers for Google with the stand-in's key set: nothing leaves the machine.
    class StandInForGoogle extends KeyFetchGate {
      readonly urls: string[] = [];
      override async fetch(url: string) {
        this.urls.push(url);
        return (await fetch(google.jwksUrl)).text();
      }
    }
    const gate = new StandInForGoogle();
    const ctx = contextFor({ jwksUrl: "" }, new ProviderFetch([], { gate }));
    expect(await authenticate(push(await googleToken()), ctx)).toEqual({ ok: true });
    expect(gate.urls).toEqual([GOOGLE_JWKS_URL]);
    expect(GOOGLE_JWKS_URL).toBe("https://www.googleapis.com/oauth2/v3/certs");
  });

  test("a JWKS URL outside the rule (the stand-in without the flag) is refused without a fetch, the reason naming it", async () => {
    const before = google.hits.length;
    const outside = await authenticate(push(await googleToken()), contextFor({}, new ProviderFetch([])));
    expect(outside).toEqual({ ok: false, reason: expect.stringContaining(`keys not fetched: JWKS: ${google.jwksUrl} is not https`) });
    expect(google.hits.length).toBe(before);
  });

  test("a JWKS host that is down: ProviderUnavailable (the host answers 503), never a refusal", async () => {
    const down = await googleStandIn();
    down.up = false;
    try {
      const ctx = pluginContext("", NOW, false, {
        settings: settingsWithDefaults(pubsub.settings, { serviceAccountEmail: EMAIL, jwksUrl: down.jwksUrl }),
        providerFetch: new ProviderFetch([down.hostPort], { gate: new KeyFetchGate() }),
      });
      const error = await authenticate(push(await googleToken()), ctx).then(
        () => null,
        (e) => e,
      );
      expect(error).toBeInstanceOf(ProviderUnavailable);
      expect(error).toMatchObject({ host: down.hostPort, retryAfterSeconds: 30 });
    } finally {
      down.stop();
    }
  });

  test("sign() makes a token the plugin accepts, with the stand-in's key; without a private key it cannot sign", async () => {
    const ctx = contextFor();
    const unsigned = push(null);
    const signed = await pubsub.sign!(unsigned, pluginContext(google.privatePem, NOW, false, { settings: ctx.settings }));
    expect(Object.keys(signed.headers)).toEqual(["Authorization"]);
    expect(await authenticate(requestOf({ body: fixture.body, headers: signed.headers }), ctx)).toEqual({ ok: true });
    await expect(Promise.resolve().then(() => pubsub.sign!(unsigned, pluginContext("", NOW, false, { settings: ctx.settings })))).rejects.toMatchObject({
      code: "cannot_sign",
    });
  });
});

describe("gcp-pubsub plugin: settings", () => {
  const check = (given: Record<string, unknown>) =>
    resolveAppSettings(pubsub, given, undefined, {
      triggerUrl: TRIGGER_URL,
      fetchProblem: (url, rule) => fetchRuleProblem(url, rule, new Set([google.hostPort])),
    }).problems;

  test("Audience, Service account email and JWKS URL, by those labels; the email is optional and checked", () => {
    expect(pubsub.settings!.map((s) => [s.key, s.label, s.kind])).toEqual([
      ["audience", "Audience", "text"],
      ["serviceAccountEmail", "Service account email", "text"],
      ["jwksUrl", "JWKS URL", "text"],
    ]);
    expect(check({ serviceAccountEmail: EMAIL })).toEqual([]);
    // Optional, as every app setting: without it no push is accepted (see the verify test).
    expect(check({})).toEqual([]);
    expect(check({ serviceAccountEmail: "pubsub-push" })).toEqual([
      { path: "/appSettings/serviceAccountEmail", message: expect.stringContaining("is not an email address") },
    ]);
  });

  test("a JWKS URL is accepted on Google's host or a --provider-fetch-allow one, refused elsewhere", () => {
    expect(check({ serviceAccountEmail: EMAIL, jwksUrl: GOOGLE_JWKS_URL })).toEqual([]);
    expect(check({ serviceAccountEmail: EMAIL, jwksUrl: google.jwksUrl })).toEqual([]);
    expect(check({ serviceAccountEmail: EMAIL, jwksUrl: "https://keys.evil.example/certs" })).toEqual([
      { path: "/appSettings/jwksUrl", message: expect.stringContaining("keys.evil.example is not one of the provider's hosts") },
    ]);
    expect(check({ serviceAccountEmail: EMAIL, jwksUrl: "http://www.googleapis.com/oauth2/v3/certs" })).toEqual([
      { path: "/appSettings/jwksUrl", message: expect.stringContaining("is not https") },
    ]);
  });
});

describe("gcp-pubsub plugin: the push envelope", () => {
  const b64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64");
  const envelope = (data: string) => ({
    message: { data, attributes: { eventType: "OBJECT_FINALIZE" }, messageId: "m-1", publishTime: "2025-06-15T15:06:40.512Z" },
    subscription: "projects/p/subscriptions/s",
  });

  test("message.data is decoded into message.decoded: JSON when it parses (numbers exact), else its text; the raw data is kept", () => {
    const json = withDecodedData(envelope(b64('{"order":9007199254740993,"ok":true}')), false) as any;
    expect(json.message.data).toBe(b64('{"order":9007199254740993,"ok":true}'));
    expect(String(json.message.decoded.order)).toBe("9007199254740993");
    expect(json.message.decoded.ok).toBe(true);
    expect(json.message.attributes).toEqual({ eventType: "OBJECT_FINALIZE" });
    expect(json.subscription).toBe("projects/p/subscriptions/s");
    expect((withDecodedData(envelope(b64("hello, world")), false) as any).message.decoded).toBe("hello, world");
    expect((withDecodedData(envelope(""), false) as any).message.decoded).toBe("");
    expect(decodeData(b64("42"))).toBe(42);
  });

  test("data that is not base64, or bytes that are not UTF-8, stays as sent with no decoded", () => {
    for (const data of ["not base64!", "aGVsbG8", b64(Uint8Array.from([0xff, 0xfe, 0x00]))]) {
      const body = envelope(data);
      expect(withDecodedData(body, false)).toBe(body);
    }
    for (const body of [null, "text", [], { message: "x" }, { message: { data: 1 } }, { subscription: "s" }]) expect(withDecodedData(body, false)).toBe(body);
  });

  test("under redaction the raw data is left out once decoded (it would keep an unredacted copy); the body given is unchanged", () => {
    const body = envelope(b64('{"email":"a@b.c"}'));
    const copy = structuredClone(body);
    expect(withDecodedData(body, true)).toEqual({
      ...body,
      message: { attributes: body.message.attributes, messageId: "m-1", publishTime: body.message.publishTime, decoded: { email: "a@b.c" } },
    });
    expect(body).toEqual(copy);
  });

  test("event is the eventType attribute when present, else null; the delivery id is message.messageId (or message_id)", () => {
    expect(pubsub.event!(push(null), envelope(""))).toBe("OBJECT_FINALIZE");
    expect(pubsub.event!(push(null), { message: { data: "", attributes: {} } })).toBeNull();
    expect(pubsub.event!(push(null), { message: { data: "" } })).toBeNull();
    const ctx = contextFor();
    expect(pubsub.deliveryId!(push(null, JSON.stringify(envelope(""))), ctx)).toBe("m-1");
    expect(pubsub.deliveryId!(push(null, JSON.stringify({ message: { message_id: "m-2" } })), ctx)).toBe("m-2");
    expect(pubsub.deliveryId!(push(null, "{}"), ctx)).toBeNull();
  });
});
