import { afterAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authenticateAppRequest, parseJson, pluginContext, resolveAppSettings, type InletPlugin, type PluginRequest } from "../../src/plugins/index.ts";
import { providerFetchServing } from "../../test/plugins/provider_documents.ts";
import { requestOf, signedFixture, tampered } from "../_shared/test_support.ts";
import fixture, { CERTIFICATE_URL } from "./fixture.ts";
import sns from "./index.ts";
import { stringToSign, type SnsMessage } from "./message.ts";
import { TEST_CERTIFICATE, TEST_PRIVATE_KEY } from "./test_key.ts";

const plugin: InletPlugin = sns;
const NOW = new Date(1_750_000_000_000);
const TOPIC = "arn:aws:sns:us-east-1:123456789012:orders";
const SUBSCRIBE_URL = `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92`;
const encoder = new TextEncoder();

/** A context whose fetches reach only the test certificate (and a SubscribeURL), noting each URL fetched. */
function contextWith(settings: Record<string, unknown> = {}, fetched: string[] = []) {
  const providerFetch = providerFetchServing(
    {
      [CERTIFICATE_URL]: TEST_CERTIFICATE,
      [new URL(SUBSCRIBE_URL).href]: "<ConfirmSubscriptionResponse/>",
      "https://sns.us-east-1.amazonaws.com/confirm?Token=2": "<ConfirmSubscriptionResponse/>",
    },
    fetched,
  );
  return pluginContext("", NOW, false, { settings: { topicArns: [TOPIC], autoConfirm: false, ...settings } as never, providerFetch });
}

/** `message` (fields over the fixture's) signed by sign() with `key`, as SNS posts it. */
async function signedMessage(fields: Record<string, unknown> = {}, key = TEST_PRIVATE_KEY): Promise<PluginRequest> {
  const body = JSON.stringify({ ...JSON.parse(fixture.body), ...fields });
  const type = typeof fields.Type === "string" ? fields.Type : "Notification";
  const unsigned = requestOf({ headers: { ...fixture.headers, "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": type }, body });
  const signed = await plugin.sign!(unsigned, pluginContext(key, NOW));
  return { ...unsigned, rawBody: signed.rawBody! };
}

const messageOf = (req: PluginRequest) => JSON.parse(new TextDecoder().decode(req.rawBody)) as Record<string, unknown>;
const withMessage = (req: PluginRequest, changes: Record<string, unknown>) => ({
  ...req,
  rawBody: encoder.encode(JSON.stringify({ ...messageOf(req), ...changes })),
});

async function judged(req: PluginRequest, ctx = contextWith()) {
  return authenticateAppRequest(plugin, req, ctx);
}

const scratch = mkdtempSync(join(tmpdir(), "inlet-sns-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** openssl, an oracle outside inlet: `dgst -sign` with the test key, or `dgst -verify` with the certificate's key. */
function openssl(args: string[], input: string): { ok: boolean; out: Uint8Array } {
  const run = Bun.spawnSync(["openssl", ...args], { stdin: encoder.encode(input) });
  return { ok: run.exitCode === 0, out: run.stdout };
}
const keyFile = join(scratch, "key.pem");
const certFile = join(scratch, "cert.pem");
const publicFile = join(scratch, "public.pem");
writeFileSync(keyFile, TEST_PRIVATE_KEY);
writeFileSync(certFile, TEST_CERTIFICATE);
writeFileSync(publicFile, openssl(["x509", "-in", certFile, "-pubkey", "-noout"], "").out);

describe("aws-sns plugin", () => {
  test("builds AWS's documented strings to sign, for a Notification and a SubscriptionConfirmation", () => {
    const notification = {
      Type: "Notification",
      MessageId: "4d4dc071-ddbf-465d-bba8-08f81c89da64",
      TopicArn: "arn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P",
      Subject: "My subject",
      Message: "My Test Message",
      Timestamp: "2019-01-31T04:37:04.321Z",
      SignatureVersion: "1",
    } as SnsMessage;
    expect(stringToSign(notification)).toBe(
      "Message\nMy Test Message\nMessageId\n4d4dc071-ddbf-465d-bba8-08f81c89da64\nSubject\nMy subject\nTimestamp\n2019-01-31T04:37:04.321Z\nTopicArn\narn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P\nType\nNotification\n",
    );
    // Without a Subject, SNS signs no Subject line.
    const { Subject: _, ...noSubject } = notification;
    expect(stringToSign(noSubject as SnsMessage)).not.toContain("Subject");
    const confirmation = {
      Type: "SubscriptionConfirmation",
      MessageId: "3d891288-136d-417f-bc05-901c108273ee",
      Token: "233...",
      TopicArn: "arn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P",
      Message: "My Test Message",
      SubscribeURL:
        "https://sns.us-east-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P&Token=233...",
      Timestamp: "2019-01-31T19:25:13.719Z",
    } as SnsMessage;
    expect(stringToSign(confirmation)).toBe(
      "Message\nMy Test Message\nMessageId\n3d891288-136d-417f-bc05-901c108273ee\nSubscribeURL\nhttps://sns.us-east-2.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P&Token=233...\nTimestamp\n2019-01-31T19:25:13.719Z\nToken\n233...\nTopicArn\narn:aws:sns:us-east-2:123456789012:s4-MySNSTopic-1G1WEFCOXTC0P\nType\nSubscriptionConfirmation\n",
    );
    // A confirmation's Subject is not signed; its Token is, and without one there is nothing to check.
    expect(stringToSign({ ...confirmation, Subject: "x" } as SnsMessage)).toBe(stringToSign(confirmation));
    const { Token: __, ...noToken } = confirmation;
    expect(stringToSign(noToken as SnsMessage)).toBeNull();
  });

  test("accepts SignatureVersion 1 (SHA1withRSA) and 2 (SHA256withRSA) signatures made by openssl with the certificate's key", async () => {
    for (const [version, digest] of [
      ["1", "-sha1"],
      ["2", "-sha256"],
    ] as const) {
      const unsigned = { ...JSON.parse(fixture.body), SignatureVersion: version, Timestamp: NOW.toISOString() };
      const { ok, out } = openssl(["dgst", digest, "-sign", keyFile], stringToSign(unsigned)!);
      expect(ok).toBe(true);
      const req = requestOf({ headers: fixture.headers, body: JSON.stringify({ ...unsigned, Signature: Buffer.from(out).toString("base64") }) });
      expect(await judged(req)).toEqual({ ok: true });
      // The same signature under the other version's name is not valid.
      expect((await judged(withMessage(req, { SignatureVersion: version === "1" ? "2" : "1" }))).ok).toBe(false);
    }
  });

  test("sign() makes what openssl verifies with the certificate's public key", async () => {
    for (const version of ["1", "2"]) {
      const req = await signedMessage({ SignatureVersion: version });
      const message = messageOf(req);
      expect(message.SignatureVersion).toBe(version);
      expect(message.Timestamp).toBe(NOW.toISOString());
      const signatureFile = join(scratch, `signature-${version}.bin`);
      writeFileSync(signatureFile, Buffer.from(message.Signature as string, "base64"));
      const check = openssl(
        ["dgst", version === "1" ? "-sha1" : "-sha256", "-verify", publicFile, "-signature", signatureFile],
        stringToSign(message as SnsMessage)!,
      );
      expect(check.ok).toBe(true);
      expect(await judged(req)).toEqual({ ok: true });
    }
  });

  test("a changed message, an unknown SignatureVersion, a signature by another key or one that is not base64: refused, never thrown", async () => {
    const req = await signedMessage();
    const foreignKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    for (const forged of [
      tampered(req),
      withMessage(req, { Message: "{}" }),
      withMessage(req, { Subject: "Another subject" }),
      withMessage(req, { SignatureVersion: "3" }),
      withMessage(req, { Signature: "not base64!" }),
      withMessage(req, { Signature: "" }),
      withMessage(req, { Type: "SubscriptionConfirmation" }),
      await signedMessage({}, foreignKey),
    ]) {
      expect(await judged(forged)).toMatchObject({ ok: false });
      expect(await plugin.verify(forged, contextWith())).toBe(false);
    }
  });

  test("a message whose type header disagrees with its signed Type is refused", async () => {
    const req = await signedMessage();
    const headers = new Headers(req.headers);
    headers.set("x-amz-sns-message-type", "SubscriptionConfirmation");
    expect((await judged({ ...req, headers })).ok).toBe(false);
    headers.delete("x-amz-sns-message-type");
    expect(await judged({ ...req, headers })).toEqual({ ok: true });
  });

  test("a topic the trigger does not list: refused before anything is fetched, and Activity says which topic", async () => {
    const fetched: string[] = [];
    const req = await signedMessage();
    const result = await judged(req, contextWith({ topicArns: ["arn:aws:sns:us-east-1:123456789012:other"] }, fetched));
    expect(result).toEqual({ ok: false, reason: `aws-sns signature missing or invalid (topic ${TOPIC} is not one of the trigger's Topic ARNs)` });
    expect(fetched).toEqual([]);
  });

  test("a certificate URL outside SNS's hosts or names: refused without a fetch, the reason noted", async () => {
    for (const url of [
      "https://evil.example/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem",
      "https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem",
      "http://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem",
      "https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem",
      "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.txt",
      "https://sns.us-east-1.amazonaws.com/",
      "not a url",
    ]) {
      const fetched: string[] = [];
      const result = await judged(await signedMessage({ SigningCertURL: url }), contextWith({}, fetched));
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.reason).toContain("SNS signing certificate");
      expect(fetched).toEqual([]);
    }
  });

  test("the China partition's hosts are SNS's too", async () => {
    const url = "https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem";
    const fetched: string[] = [];
    const providerFetch = providerFetchServing({ [url]: TEST_CERTIFICATE }, fetched);
    const ctx = pluginContext("", NOW, false, { settings: { topicArns: [TOPIC], autoConfirm: false }, providerFetch });
    expect(await judged(await signedMessage({ SigningCertURL: url }), ctx)).toEqual({ ok: true });
    expect(fetched).toEqual([url]);
  });

  test("any .pem file of an SNS host is a certificate URL, whatever its name", async () => {
    for (const url of ["https://sns.us-east-1.amazonaws.com/cert.pem", "https://sns.eu-west-1.amazonaws.com/keys/SimpleNotificationService-test.pem"]) {
      const fetched: string[] = [];
      const providerFetch = providerFetchServing({ [url]: TEST_CERTIFICATE }, fetched);
      const ctx = pluginContext("", NOW, false, { settings: { topicArns: [TOPIC], autoConfirm: false }, providerFetch });
      expect(await judged(await signedMessage({ SigningCertURL: url }), ctx)).toEqual({ ok: true });
      expect(fetched).toEqual([url]);
    }
  });

  test("the certificate is fetched once and kept: a second message signed with it costs no fetch", async () => {
    const fetched: string[] = [];
    const ctx = contextWith({}, fetched);
    expect(await judged(await signedMessage({ MessageId: "a" }), ctx)).toEqual({ ok: true });
    expect(await judged(await signedMessage({ MessageId: "b" }), ctx)).toEqual({ ok: true });
    expect(fetched).toEqual([CERTIFICATE_URL]);
  });

  test("the signed Timestamp is the delivery's timestamp (six hours either way)", async () => {
    const req = await signedMessage();
    expect(plugin.timestamp!(req, contextWith())).toBe(NOW.getTime() / 1000);
    expect(plugin.toleranceSeconds).toBe(6 * 3600);
    expect(plugin.timestamp!(withMessage(req, { Timestamp: "yesterday" }), contextWith())).toBeNull();
  });

  test("$trigger.body (decodeBody): the message from the text/plain body, its Message parsed when it holds a JSON object or array; other messages stay text", async () => {
    const decode = (req: PluginRequest, body: unknown = new TextDecoder().decode(req.rawBody)) => plugin.decodeBody!(body, req, { redacting: false });
    const req = await signedMessage();
    const shared = parseJson(req.rawBody) as Record<string, unknown>;
    expect(decode(req)).toEqual({ ...shared, Message: JSON.parse(shared.Message as string) });
    expect(shared.Message).toBeString(); // the parse the hooks share is left alone
    for (const message of ["Hello world!", "42", '"quoted"', "{not json", "true", ""]) {
      const plain = withMessage(req, { Message: message });
      // Nothing to parse inside: the message itself, the parse the hooks share.
      expect(decode(plain)).toBe(parseJson(plain.rawBody));
    }
    expect(decode(withMessage(req, { Message: " [1, 2]" }))).toMatchObject({ Message: [1, 2] });
    // A body that is not an SNS message (verify refuses it first) is left as parsed.
    expect(decode(requestOf({ body: "text" }), "text")).toBe("text");
    expect(plugin.event!(req, "the body as text")).toBe("Notification");
  });

  test("a SubscriptionConfirmation without auto-confirm: answered 200, and its detail names the SubscribeURL; nothing fetched but the certificate", async () => {
    const fetched: string[] = [];
    const ctx = contextWith({}, fetched);
    const req = await signedMessage({
      Type: "SubscriptionConfirmation",
      SubscribeURL: SUBSCRIBE_URL,
      Token: "2336412f37fb687f5d51e6e241d09c805a5a57b30d712f794cc5f6a988666d92",
    });
    expect(await judged(req, ctx)).toEqual({ ok: true });
    const answer = (await plugin.handshake!(req, ctx)) as { response: Response; detail: string };
    expect(answer.response.status).toBe(200);
    expect(answer.detail).toContain(SUBSCRIBE_URL);
    expect(answer.detail).toContain("Auto-confirm subscriptions");
    expect(fetched).toEqual([CERTIFICATE_URL]);
  });

  test("a SubscriptionConfirmation with auto-confirm: its SubscribeURL is fetched under SNS's host rule, and only a ConfirmSubscription URL", async () => {
    const fetched: string[] = [];
    const ctx = contextWith({ autoConfirm: true }, fetched);
    const confirmation = { Type: "SubscriptionConfirmation", SubscribeURL: SUBSCRIBE_URL, Token: "2336412f" };
    const answer = (await plugin.handshake!(await signedMessage(confirmation), ctx)) as { response: Response; detail: string };
    expect(answer.response.status).toBe(200);
    expect(answer.detail).toBe(`SNS subscription to ${TOPIC} confirmed (GET https://sns.us-east-1.amazonaws.com/); no run`);
    expect(fetched).toEqual([new URL(SUBSCRIBE_URL).href]);
    const elsewhere = await signedMessage({ ...confirmation, SubscribeURL: "https://evil.example/?Action=ConfirmSubscription&Token=1" });
    await expect(plugin.handshake!(elsewhere, ctx)).rejects.toThrow("evil.example is not one of the provider's hosts");
    expect(fetched).toHaveLength(1);
    // The host rule alone (the URL is in a message AWS signed): another path of an SNS host is fetched too.
    const otherPath = await signedMessage({ ...confirmation, SubscribeURL: "https://sns.us-east-1.amazonaws.com/confirm?Token=2" });
    expect(((await plugin.handshake!(otherPath, ctx)) as { response: Response }).response.status).toBe(200);
    expect(fetched).toEqual([new URL(SUBSCRIBE_URL).href, "https://sns.us-east-1.amazonaws.com/confirm?Token=2"]);
  });

  test("an UnsubscribeConfirmation is answered and shown, never confirmed; a Notification and a GET are no handshake", async () => {
    const fetched: string[] = [];
    const ctx = contextWith({ autoConfirm: true }, fetched);
    const req = await signedMessage({ Type: "UnsubscribeConfirmation", SubscribeURL: SUBSCRIBE_URL, Token: "2336412f" });
    const answer = (await plugin.handshake!(req, ctx)) as { response: Response; detail: string };
    expect(answer.detail).toContain(`SNS subscription to ${TOPIC} deleted`);
    expect(answer.detail).toContain(SUBSCRIBE_URL);
    expect(fetched).toEqual([]);
    expect(await plugin.handshake!(await signedMessage(), ctx)).toBeNull();
    expect(await plugin.handshake!({ ...req, method: "GET" }, ctx)).toBeNull();
  });

  test("the MessageId is the delivery id, the same on SNS's retries", async () => {
    const first = await signedFixture(plugin, fixture, NOW);
    const retry = await signedFixture(plugin, fixture, new Date(NOW.getTime() + 60_000));
    expect(plugin.deliveryId!(first, contextWith())).toBe("22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324");
    expect(plugin.deliveryId!(retry, contextWith())).toBe(plugin.deliveryId!(first, contextWith()));
  });

  test("Topic ARNs: each arn:aws:sns:<region>:<account>:<topic>, none at first (optional); auto-confirm is off by default", () => {
    const check = (topicArns: unknown) =>
      resolveAppSettings(plugin, { topicArns }, undefined, { triggerUrl: "https://inlet.example.com/webhooks/t", fetchProblem: () => null });
    expect(check([TOPIC, "arn:aws-cn:sns:cn-north-1:123456789012:orders", "arn:aws:sns:us-east-1:123456789012:orders.fifo"])).toMatchObject({
      settings: { topicArns: [TOPIC, "arn:aws-cn:sns:cn-north-1:123456789012:orders", "arn:aws:sns:us-east-1:123456789012:orders.fifo"], autoConfirm: false },
    });
    expect(check([]).problems).toEqual([]);
    expect(check(["arn:aws:sqs:us-east-1:123456789012:orders", "arn:aws:sns:us-east-1:12345:orders", "orders"]).problems).toEqual([
      { path: "/appSettings/topicArns/0", message: "is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)" },
      { path: "/appSettings/topicArns/1", message: "is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)" },
      { path: "/appSettings/topicArns/2", message: "is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)" },
    ]);
  });

  test("sign() cannot sign as AWS: without a private RSA key it says what to give", async () => {
    const unsigned = requestOf({ body: fixture.body });
    expect(() => plugin.sign!(unsigned, pluginContext("", NOW))).toThrow("SNS messages are signed with AWS's private key");
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(() => plugin.sign!(unsigned, pluginContext(ec, NOW))).toThrow("an SNS signing key is RSA, not ec");
    expect(() => plugin.sign!(requestOf({ body: JSON.stringify({ TopicArn: TOPIC }) }), pluginContext(TEST_PRIVATE_KEY, NOW))).toThrow(
      "an SNS Notification needs Message",
    );
    expect(() => plugin.sign!(requestOf({ body: JSON.stringify({ TopicArn: TOPIC, Message: "hi" }) }), pluginContext(TEST_PRIVATE_KEY, NOW))).toThrow(
      "names no SigningCertURL",
    );
  });
});
