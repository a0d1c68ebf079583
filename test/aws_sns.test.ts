/**
 * The aws-sns app plugin end to end (README "AWS SNS"): a real server whose certificate host is a
 * local double allowed by --provider-fetch-allow, serving a certificate made for this run with
 * openssl. Signed v1 and v2 notifications run with their Message parsed; a tampered one, one whose
 * certificate is elsewhere and one for an unlisted topic get the uniform 401 (the latter two with
 * nothing fetched); subscription confirmations are confirmed or shown; a certificate host that is
 * down is a 503; a redelivery is deduplicated.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sns from "../plugins/aws-sns/index.ts";
import { pluginContext } from "../src/plugins/context.ts";
import { startTestServer, UUID, type TestServer } from "./support/server.ts";

const TOPIC = "arn:aws:sns:us-east-1:123456789012:orders";
const CERT_PATH = "/SimpleNotificationService-7f3a9c2e5b1d4f6a8c0e2b4d6f8a1c3e.pem";
const UNFETCHED_CERT_PATH = "/SimpleNotificationService-00112233445566778899aabbccddeeff.pem";

// A certificate and key for this run, as AWS's would be (only the key matters to a signature).
const keys = mkdtempSync(join(tmpdir(), "inlet-sns-keys-"));
const made = Bun.spawnSync([
  "openssl",
  "req",
  "-x509",
  "-newkey",
  "rsa:2048",
  "-nodes",
  "-keyout",
  join(keys, "key.pem"),
  "-out",
  join(keys, "cert.pem"),
  "-days",
  "2",
  "-subj",
  "/CN=sns test double",
]);
if (made.exitCode !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr}`);
const PRIVATE_KEY = readFileSync(join(keys, "key.pem"), "utf8");
const CERTIFICATE = readFileSync(join(keys, "cert.pem"), "utf8");

/** SNS's double: its certificates, and the ConfirmSubscription endpoint; every request noted. */
const hits: string[] = [];
const snsHost = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    const url = new URL(request.url);
    hits.push(`${request.method} ${url.pathname}${url.search}`);
    if (url.pathname === CERT_PATH || url.pathname === UNFETCHED_CERT_PATH) return new Response(CERTIFICATE);
    if (url.pathname === "/" && url.searchParams.get("Action") === "ConfirmSubscription") return new Response("<ConfirmSubscriptionResponse/>");
    return new Response("not found", { status: 404 });
  },
});
// The same certificate served from a host the server was not told about.
const elsewhereHits: string[] = [];
const elsewhere = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request) {
    elsewhereHits.push(new URL(request.url).pathname);
    return new Response(CERTIFICATE);
  },
});
// An allowed host that is down: bound once for a port nobody listens on, then stopped.
const downHost = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("up") });
const DOWN = `127.0.0.1:${downHost.port}`;
downHost.stop(true);
const SNS_HOST = `127.0.0.1:${snsHost.port}`;
const CERT_URL = `http://${SNS_HOST}${CERT_PATH}`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, ["--provider-fetch-allow", `${SNS_HOST},${DOWN}`]);
});
afterAll(async () => {
  await server.close();
  snsHost.stop(true);
  elsewhere.stop(true);
  rmSync(keys, { recursive: true, force: true });
});

let messages = 0;
/** An SNS message signed with the run's key, as SNS posts it; fields override the notification's. */
async function message(fields: Record<string, unknown> = {}): Promise<{ body: string; headers: Record<string, string> }> {
  const unsigned = {
    Type: "Notification",
    MessageId: `5f1c0a2e-0000-4000-8000-${String(++messages).padStart(12, "0")}`,
    TopicArn: TOPIC,
    Subject: "order paid",
    Message: JSON.stringify({ order: { id: 1042, total: "19.90" }, status: "paid" }),
    SignatureVersion: "2",
    SigningCertURL: CERT_URL,
    UnsubscribeURL: `http://${SNS_HOST}/?Action=Unsubscribe&SubscriptionArn=${TOPIC}:c9135db0`,
    ...fields,
  };
  const signed = await sns.sign!(
    { method: "POST", url: "http://inlet.test/", headers: new Headers(), rawBody: new TextEncoder().encode(JSON.stringify(unsigned)) },
    pluginContext(PRIVATE_KEY, new Date()),
  );
  return {
    body: new TextDecoder().decode(signed.rawBody),
    headers: {
      "content-type": "text/plain; charset=UTF-8",
      "x-amz-sns-message-type": String(unsigned.Type),
      "x-amz-sns-message-id": unsigned.MessageId,
      "x-amz-sns-topic-arn": String(unsigned.TopicArn),
    },
  };
}

const post = (url: string, sent: { body: string; headers: Record<string, string> }) =>
  server.fetch(url, { method: "POST", body: sent.body, headers: sent.headers });
const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];
const snsTrigger = (name: string, appSettings: Record<string, unknown> = {}) =>
  server.createTrigger({ name, app: "aws-sns", appSettings: { topicArns: [TOPIC], ...appSettings } });

async function expectUniform401(response: Response) {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: "authentication failed", request_id: response.headers.get("x-request-id") });
}

test("the plugin is listed with its settings; Topic ARNs are optional (none: every message refused, Activity says why), each an SNS topic's", async () => {
  const listed = (await server.api("GET", "/api/plugins")).body.find((p: any) => p.id === "aws-sns");
  expect(listed).toMatchObject({ name: "AWS SNS", secret: { generated: false } });
  expect(listed.settings.map((s: any) => [s.key, s.label, s.kind, s.default])).toEqual([
    ["topicArns", "Topic ARNs", "lines", []],
    ["autoConfirm", "Auto-confirm subscriptions", "switch", false],
  ]);
  const none = await server.api("POST", "/api/triggers", { name: "sns-none", app: "aws-sns" });
  expect(none.status).toBe(201);
  expect(none.body.appSettings).toEqual({ topicArns: [], autoConfirm: false });
  await expectUniform401(await post(none.body.url, await message()));
  const [refused] = await server.activity(none.body.id);
  expect(refused.detail).toContain("the trigger lists no Topic ARNs yet");
  const bad = await server.api("POST", "/api/triggers", {
    name: "sns-bad",
    app: "aws-sns",
    appSettings: { topicArns: [TOPIC, "arn:aws:sqs:us-east-1:123456789012:q"] },
  });
  expect(bad.body.details).toEqual([{ path: "/appSettings/topicArns/1", message: "is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)" }]);
  expect((await snsTrigger("sns-ok")).appSettings).toEqual({ topicArns: [TOPIC], autoConfirm: false });
});

test("signed v1 and v2 notifications run, sent as text/plain: $trigger.body is the message with its Message parsed; the certificate is fetched once", async () => {
  const t = await snsTrigger("sns-notify");
  hits.length = 0;
  for (const version of ["1", "2"]) {
    const sent = await message({ SignatureVersion: version });
    const response = await post(t.url, sent);
    expect(response.status).toBe(200);
    expect((await response.json()).request_id).toMatch(UUID);
  }
  expect(hits).toEqual([`GET ${CERT_PATH}`]);
  const [v2, v1] = await runs(t.id);
  expect(v1.trigger.body.SignatureVersion).toBe("1");
  expect(v2.trigger.body).toMatchObject({
    Type: "Notification",
    TopicArn: TOPIC,
    Subject: "order paid",
    Message: { order: { id: 1042, total: "19.90" }, status: "paid" },
  });
  expect(v2.trigger.app).toEqual({ id: "aws-sns", event: "Notification", deliveryId: v2.trigger.body.MessageId });
  // A message that is plain text stays text.
  expect((await post(t.url, await message({ Message: "Hello world!" }))).status).toBe(200);
  expect((await runs(t.id))[0].trigger.body.Message).toBe("Hello world!");
});

test("a redelivery (same MessageId) is deduplicated", async () => {
  const t = await snsTrigger("sns-dedup");
  const sent = await message();
  expect((await post(t.url, sent)).status).toBe(200);
  expect((await post(t.url, sent)).status).toBe(200);
  expect(await runs(t.id)).toHaveLength(1);
  expect((await server.activity(t.id)).map((r) => r.outcome)).toEqual(["deduplicated", "run"]);
});

test("a tampered message: the uniform 401", async () => {
  const t = await snsTrigger("sns-tampered");
  const sent = await message();
  await expectUniform401(await post(t.url, { ...sent, body: sent.body.replace('\\"paid\\"', '\\"refunded\\"') }));
  expect(await runs(t.id)).toHaveLength(0);
});

test("a certificate on a host outside the rule: the uniform 401 with nothing fetched, and the reason in Activity", async () => {
  const t = await snsTrigger("sns-elsewhere");
  for (const url of [`http://127.0.0.1:${elsewhere.port}${CERT_PATH}`, `https://sns.us-east-1.amazonaws.com.evil.test${CERT_PATH}`]) {
    await expectUniform401(await post(t.url, await message({ SigningCertURL: url })));
  }
  expect(elsewhereHits).toEqual([]);
  const details = (await server.activity(t.id)).map((r) => r.detail);
  expect(details).toContain(
    "aws-sns signature missing or invalid (SNS signing certificate: sns.us-east-1.amazonaws.com.evil.test is not one of the provider's hosts (only https URLs on the provider's hosts are fetched, or a host:port of --provider-fetch-allow))",
  );
  expect(details.some((d) => d.includes(`http://127.0.0.1:${elsewhere.port}${CERT_PATH} is not https`))).toBe(true);
});

test("a message for a topic the trigger does not list: the uniform 401, nothing fetched", async () => {
  const t = await snsTrigger("sns-topic");
  hits.length = 0;
  const other = "arn:aws:sns:us-east-1:123456789012:refunds";
  await expectUniform401(await post(t.url, await message({ TopicArn: other, SigningCertURL: `http://${SNS_HOST}${UNFETCHED_CERT_PATH}` })));
  expect(hits).toEqual([]);
  expect((await server.activity(t.id))[0].detail).toBe(`aws-sns signature missing or invalid (topic ${other} is not one of the trigger's Topic ARNs)`);
});

test("a certificate host that is down: 503 unavailable with Retry-After, never a 200 or a 401", async () => {
  const t = await snsTrigger("sns-down");
  const response = await post(t.url, await message({ SigningCertURL: `http://${DOWN}${CERT_PATH}` }));
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await response.json()).toEqual({ error: "unavailable", request_id: response.headers.get("x-request-id") });
  expect(await runs(t.id)).toHaveLength(0);
});

const confirmation = (token: string) => ({
  Type: "SubscriptionConfirmation",
  Token: token,
  Message: `You have chosen to subscribe to the topic ${TOPIC}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
  SubscribeURL: `http://${SNS_HOST}/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=${token}`,
});

test("a SubscriptionConfirmation with Auto-confirm subscriptions: answered 200 and confirmed by a GET of its SubscribeURL; no run", async () => {
  const t = await snsTrigger("sns-autoconfirm", { autoConfirm: true });
  hits.length = 0;
  const response = await post(t.url, await message(confirmation("2336412f37fb687f5d51e6e241d09c80")));
  expect(response.status).toBe(200);
  expect(hits).toContain(`GET /?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336412f37fb687f5d51e6e241d09c80`);
  expect(await runs(t.id)).toHaveLength(0);
  expect(await server.activity(t.id)).toEqual([
    expect.objectContaining({ outcome: "filtered", detail: `SNS subscription to ${TOPIC} confirmed (GET http://${SNS_HOST}/); no run` }),
  ]);
  // A forged confirmation confirms nothing.
  hits.length = 0;
  const forged = await message(confirmation("forged"));
  await expectUniform401(await post(t.url, { ...forged, body: forged.body.replace("forged", "f0rged") }));
  expect(hits.filter((hit) => hit.startsWith("GET /?"))).toEqual([]);
});

test("a SubscriptionConfirmation without auto-confirm: answered 200 and shown in Activity with the SubscribeURL to open; no run, no confirmation", async () => {
  const t = await snsTrigger("sns-manual");
  hits.length = 0;
  const sent = confirmation("9a8b7c6d5e4f");
  const response = await post(t.url, await message(sent));
  expect(response.status).toBe(200);
  expect(hits.filter((hit) => hit.startsWith("GET /?"))).toEqual([]);
  const [row] = await server.activity(t.id);
  expect(row.outcome).toBe("filtered");
  expect(row.detail).toContain(`SNS subscription to ${TOPIC} awaits confirmation: open ${sent.SubscribeURL}`);
  expect(await runs(t.id)).toHaveLength(0);
});
