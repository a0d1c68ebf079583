import { expect, test } from "bun:test";
import { MemoryIngestStore, triggerRecord } from "../../test/support/ingest.ts";
import { definePlugin } from "../plugins/define.ts";
import { parseJson } from "../plugins/json_body.ts";
import type { InletPlugin } from "../plugins/types.ts";
import { StoreUnavailable } from "../store/errors.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { compileChecks } from "../checks/compile.ts";
import { CheckPool } from "../checks/pool.ts";
import { pooledChecks } from "../checks/pooled.ts";
import type { Delivery } from "./delivery.ts";
import { IngestPipeline, type IngestDeps, type IngestResult } from "./pipeline.ts";
import { XML_THREAD_BYTES, XmlParserBusy, xmlParserThread } from "./xml_thread.ts";
import type { Adoption } from "../triggers/adoption.ts";

// The whole processing order in process: real stages and sandboxed checks, an in-memory store.
function pipelineWith(
  triggers: TriggerRecord[],
  options: {
    plugins?: InletPlugin[];
    store?: IngestDeps["store"];
    maxBodyBytes?: number;
    compileChecks?: IngestDeps["compileChecks"];
    adoption?: Adoption;
    callerAddress?: IngestDeps["callerAddress"];
  } = {},
) {
  const store = options.store ?? new MemoryIngestStore();
  const adopted: string[] = [];
  const pipeline = new IngestPipeline({
    triggers: {
      findByToken: (token) => triggers.find((t) => t.token === token),
      adoptAppSecret: async (_id, secret) => {
        const adoption = options.adoption ?? "adopted";
        if (adoption === "adopted") adopted.push(secret);
        return adoption;
      },
    },
    callerAddress: options.callerAddress,
    store,
    plugins: { get: (id) => options.plugins?.find((p) => p.id === id) },
    compileChecks: options.compileChecks ?? compileChecks,
    maxBodyBytes: options.maxBodyBytes ?? 1024,
    baseUrl: () => "http://inlet.test",
    now: () => new Date("2026-02-01T12:00:00.000Z"),
  });
  const post = (token: string, body: string, headers: Record<string, string> = {}, method = "POST") =>
    pipeline.handle(new Request(`http://inlet.test/webhooks/${token}`, { method, body: method === "GET" ? undefined : body, headers }), token, "");
  return { pipeline, store: store as MemoryIngestStore, post, adopted };
}

const json = { "Content-Type": "application/json" };

test("an accepted request is one durable run with its Activity row, then the plain ack", async () => {
  const trigger = triggerRecord({ auth: { type: "bearer", signatureHeader: "X-Signature", encoding: "hex" }, secret: "s3cret" });
  const { post, store } = pipelineWith([trigger]);
  const result = await post(trigger.token, '{"a":1}', { ...json, Authorization: "Bearer s3cret", "X-Other": "kept" });
  const id = result.response.headers.get("x-request-id");
  expect(await result.response.json()).toEqual({ received: true, request_id: id });
  expect(result.outcome).toBe("run");
  expect(store.runs).toHaveLength(1);
  const payload = store.runs[0].trigger as { headers: Record<string, string>; body: unknown; requestId: string };
  expect(payload.body).toEqual({ a: 1 });
  expect(payload.requestId).toBe(id!);
  expect(payload.headers.authorization).toBeUndefined();
  expect(payload.headers["x-other"]).toBe("kept");
  expect(store.activity.map((a) => a.outcome)).toEqual(["run"]);
});

test("unknown token: 404 with request id and no Activity row", async () => {
  const { post, store } = pipelineWith([]);
  const result = await post("nope", "{}");
  expect(result.response.status).toBe(404);
  expect(result.outcome).toBe("not_found");
  expect(store.activity).toHaveLength(0);
});

test("every request with a known token leaves exactly one Activity row, whatever ends it", async () => {
  const trigger = triggerRecord({
    auth: { type: "header", headerName: "X-Key", signatureHeader: "X-Signature", encoding: "hex" },
    secret: "k",
    dedup: { strategy: "payload-hash", windowSeconds: 60 },
    filter: { enabled: true, mode: "include", expression: '$.type == "paid"' },
  });
  const { post, store } = pipelineWith([trigger]);
  const outcomes: Array<IngestResult["outcome"]> = [];
  outcomes.push((await post(trigger.token, '{"type":"paid"}', { ...json, "X-Key": "k" })).outcome);
  outcomes.push((await post(trigger.token, '{"type":"paid"}', { ...json, "X-Key": "k" })).outcome);
  outcomes.push((await post(trigger.token, '{"type":"other"}', { ...json, "X-Key": "k" })).outcome);
  outcomes.push((await post(trigger.token, '{"type":"paid"}', { ...json, "X-Key": "wrong" })).outcome);
  outcomes.push((await post(trigger.token, "{broken", { ...json, "X-Key": "k" })).outcome);
  outcomes.push((await post(trigger.token, "x".repeat(2000), { "X-Key": "k" })).outcome);
  outcomes.push((await post(trigger.token, "", {}, "GET")).outcome);
  expect(outcomes).toEqual(["run", "deduplicated", "filtered", "auth_failed", "rejected", "rejected", "rejected"]);
  expect(store.activity.map((a) => a.outcome as IngestResult["outcome"])).toEqual(outcomes);
  expect(store.runs).toHaveLength(1);
});

test("redaction runs before the run is stored; the stored body never holds the value", async () => {
  const trigger = triggerRecord({ redaction: { enabled: true, patterns: ["^email$", "card"] } });
  const { post, store } = pipelineWith([trigger]);
  await post(trigger.token, '{"email":"a@b.c","user":{"creditCard":"4111"},"keep":1}', json);
  expect((store.runs[0].trigger as { body: unknown }).body).toEqual({ email: "[REDACTED]", user: { creditCard: "[REDACTED]" }, keep: 1 });
});

test("redacting the body with a query string adds no nesting level: a body nested 256 deep still runs", async () => {
  const trigger = triggerRecord({ redaction: { enabled: true, patterns: ["secret"] } });
  const { pipeline, store } = pipelineWith([trigger], { maxBodyBytes: 4096 });
  const deepest = "[".repeat(256) + "]".repeat(256);
  const request = new Request(`http://inlet.test/webhooks/${trigger.token}?a=1`, { method: "POST", body: deepest, headers: json });
  const result = await pipeline.handle(request, trigger.token, "?a=1");
  expect(result.outcome).toBe("run");
  expect((store.runs[0].trigger as { query: unknown }).query).toEqual({ a: "1" });
});

test("a trigger whose plugin is not loaded here: opaque 500 and an error row naming the plugin", async () => {
  const trigger = triggerRecord({ app: "gone" });
  const { post, store } = pipelineWith([trigger]);
  const result = await post(trigger.token, "{}");
  expect(result.response.status).toBe(500);
  expect(await result.response.json()).toEqual({ error: "pre-execution check failed", request_id: result.response.headers.get("x-request-id") });
  expect(store.activity[0]).toMatchObject({ outcome: "error", detail: "plugin gone is not loaded in this instance" });
});

/** A store whose commits all fail with `error`. (Its Activity rows, like MemoryIngestStore's, are there as soon as the pipeline answers.) */
function failingStore(error: Error): MemoryIngestStore {
  const store = new MemoryIngestStore();
  store.commitIngest = () => Promise.reject(error);
  return store;
}

test("the store down: 503 with Retry-After, never a 200", async () => {
  const trigger = triggerRecord();
  const { post } = pipelineWith([trigger], { store: failingStore(new StoreUnavailable("disk gone")) });
  const result = await post(trigger.token, "{}", json);
  expect(result.response.status).toBe(503);
  expect(result.response.headers.get("retry-after")).toBe("5");
  expect(result.outcome).toBe("error");
});

test("an unexpected failure is still an answer in the contract's shape, with an error row for the owner", async () => {
  const trigger = triggerRecord();
  const broken = failingStore(new Error("UNIQUE constraint failed: runs.id"));
  const { post } = pipelineWith([trigger], { store: broken });
  const result = await post(trigger.token, "{}", json);
  expect(result.response.status).toBe(500);
  expect(await result.response.json()).toEqual({ error: "internal error", request_id: result.response.headers.get("x-request-id") });
  expect(result.outcome).toBe("error");
  expect(broken.activity).toEqual([expect.objectContaining({ outcome: "error", detail: "internal error: UNIQUE constraint failed: runs.id" })]);
});

const challenge: InletPlugin = definePlugin({
  id: "chal",
  name: "Chal",
  secret: { label: "Signing secret", generated: false },
  adoptsSecret: true,
  verify: (req, ctx) => req.headers.get("x-sig") === ctx.secret,
  handshake: (req) => {
    if (req.method === "GET") return new URL(req.url).searchParams.get("challenge") ? new Response("echo") : null;
    const text = new TextDecoder().decode(req.rawBody);
    return text.includes("hello") ? { response: new Response("hi"), adoptSecret: "offered" } : null;
  },
});

test("app triggers: unsigned GET only for the URL check; a POST handshake only once verified", async () => {
  const trigger = triggerRecord({ app: "chal", appSecret: "sig" });
  const { pipeline, post, store, adopted } = pipelineWith([trigger], { plugins: [challenge] });
  const check = await pipeline.handle(new Request(`http://inlet.test/webhooks/${trigger.token}?challenge=1`), trigger.token, "?challenge=1");
  expect(await check.response.text()).toBe("echo");
  expect(check.response.headers.get("x-request-id")).toMatch(/-/);
  expect((await post(trigger.token, "", {}, "GET")).response.status).toBe(405);
  expect((await post(trigger.token, "hello", { "x-sig": "forged" })).response.status).toBe(401);
  expect(adopted).toEqual([]);
  const hello = await post(trigger.token, "hello", { "x-sig": "sig" });
  expect(await hello.response.text()).toBe("hi");
  expect(adopted).toEqual(["offered"]);
  expect(store.activity.map((a) => a.outcome)).toEqual(["filtered", "rejected", "auth_failed", "filtered"]);
  expect(store.runs).toHaveLength(0);
});

// Azure Event Grid's shape: a key in a header or in ?code=, and a CloudEvents OPTIONS check.
const keyed: InletPlugin = definePlugin({
  id: "keyed",
  name: "Keyed",
  secret: { label: "Key", generated: true },
  verify: (req, ctx) => (req.headers.get("x-key") ?? new URL(req.url).searchParams.get("code")) === ctx.secret,
  credentialQuery: ["Code"],
  handshakeMethods: ["OPTIONS"],
  handshake: (req) =>
    req.method === "OPTIONS" && req.headers.has("webhook-request-origin") ? new Response(null, { headers: { "WebHook-Allowed-Rate": "*" } }) : null,
});

test("handshakeMethods: an OPTIONS reaches the handshake only once verified; verified but no handshake, 405; a plugin without them, 405", async () => {
  const trigger = triggerRecord({ app: "keyed", secret: "k3y" });
  const { pipeline, store } = pipelineWith([trigger, triggerRecord({ id: "trg_2", token: "tok_2", app: "chal", appSecret: "sig" })], {
    plugins: [keyed, challenge],
  });
  const send = (token: string, method: string, headers: Record<string, string>, query = "") =>
    pipeline.handle(new Request(`http://inlet.test/webhooks/${token}${query}`, { method, headers }), token, query);
  const origin = { "WebHook-Request-Origin": "eventgrid.azure.net" };

  const unsigned = await send(trigger.token, "OPTIONS", origin);
  expect(unsigned.response.status).toBe(401);
  expect(await unsigned.response.json()).toEqual({ error: "authentication failed", request_id: unsigned.response.headers.get("x-request-id") });
  const answered = await send(trigger.token, "OPTIONS", origin, "?code=k3y");
  expect(answered.response.status).toBe(200);
  expect(answered.response.headers.get("webhook-allowed-rate")).toBe("*");
  expect(answered.response.headers.get("x-request-id")).toMatch(/-/);
  const notACheck = await send(trigger.token, "OPTIONS", { "x-key": "k3y" });
  expect(notACheck.response.status).toBe(405);
  expect(notACheck.response.headers.get("allow")).toBe("POST");
  const put = await send(trigger.token, "PUT", { "x-key": "k3y" });
  expect(put.response.headers.get("allow")).toBe("POST, GET, HEAD, OPTIONS");
  expect((await send("tok_2", "OPTIONS", { "x-sig": "sig", ...origin })).response.status).toBe(405);

  expect(store.activity.map((a) => [a.outcome, a.detail])).toEqual([
    ["auth_failed", "keyed signature missing or invalid"],
    ["filtered", "Keyed URL-verification handshake answered; no run"],
    ["rejected", "OPTIONS is only for keyed's URL check, and this request is not one"],
    ["rejected", "method PUT not accepted (accepts POST, GET, HEAD, OPTIONS)"],
    ["rejected", "method OPTIONS not accepted (accepts POST, GET, HEAD)"],
  ]);
  expect(store.runs).toHaveLength(0);
});

test("credentialQuery: the key in ?code= authenticates and is kept out of $trigger.query, whatever its case", async () => {
  const trigger = triggerRecord({ app: "keyed", secret: "k3y" });
  const { pipeline, store } = pipelineWith([trigger], { plugins: [keyed] });
  const query = "?code=k3y&topic=uploads&CODE=other";
  const result = await pipeline.handle(
    new Request(`http://inlet.test/webhooks/${trigger.token}${query}`, { method: "POST", body: "{}", headers: json }),
    trigger.token,
    query,
  );
  expect(result.outcome).toBe("run");
  expect((store.runs[0].trigger as { query: unknown }).query).toEqual({ topic: "uploads" });
  expect(JSON.stringify(store.commits)).not.toContain("k3y");
});

test("trust on first use: a handshake's secret is adopted only while armed; otherwise the uniform 401, and Activity says how to arm", async () => {
  const trigger = triggerRecord({ app: "chal", appSecret: "sig" });
  const refused = pipelineWith([trigger], { plugins: [challenge], adoption: "not_armed" });
  const result = await refused.post(trigger.token, "hello", { "x-sig": "sig" });
  expect(result.response.status).toBe(401);
  expect(await result.response.json()).toEqual({ error: "authentication failed", request_id: result.response.headers.get("x-request-id") });
  expect(refused.adopted).toEqual([]);
  expect(refused.store.activity).toEqual([expect.objectContaining({ outcome: "auth_failed" })]);
  expect(refused.store.activity[0].detail).toContain("the trigger is not armed");
  expect(refused.store.activity[0].detail).toContain(`POST /api/triggers/${trigger.id}/arm or inlet triggers arm ${trigger.id}`);

  // Armed: adopted, and the row names the address it came from.
  const armed = pipelineWith([trigger], { plugins: [challenge], callerAddress: () => Uint8Array.from([203, 0, 113, 9]) });
  expect((await armed.post(trigger.token, "hello", { "x-sig": "sig" })).response.status).toBe(200);
  expect(armed.adopted).toEqual(["offered"]);
  expect(armed.store.activity[0].detail).toBe(
    "Chal URL-verification handshake answered; no run; the provider's secret was stored, handed over from 203.0.113.9; the trigger is no longer armed",
  );

  // The secret already stored, offered again (a retried set-up): answered, nothing changes.
  const again = pipelineWith([trigger], { plugins: [challenge], adoption: "already_adopted" });
  expect((await again.post(trigger.token, "hello", { "x-sig": "sig" })).response.status).toBe(200);
  expect(again.store.activity[0].detail).toContain("it offered the secret already stored: nothing changed");
});

test("a plugin that hands over a secret without declaring adoptsSecret is refused: its triggers are never armed", async () => {
  const { adoptsSecret: _, ...undeclared } = challenge;
  const trigger = triggerRecord({ app: "chal", appSecret: "sig" });
  const { post, store, adopted } = pipelineWith([trigger], { plugins: [undeclared as InletPlugin] });
  expect((await post(trigger.token, "hello", { "x-sig": "sig" })).response.status).toBe(401);
  expect(adopted).toEqual([]);
  expect(store.activity[0].detail).toBe("chal handshake threw: it hands over a secret (adoptSecret), but the plugin does not declare adoptsSecret: true");
});

test("a handshake may say what its Activity row reads (SNS names the URL that confirms its subscription)", async () => {
  const confirming = definePlugin({
    id: "conf",
    name: "Conf",
    secret: { label: "Signing secret", generated: false },
    verify: (req, ctx) => req.headers.get("x-sig") === ctx.secret,
    handshake: (req) =>
      new TextDecoder().decode(req.rawBody) === "confirm"
        ? { response: new Response("ok"), detail: "open https://provider.test/confirm?token=t1 to confirm; no run" }
        : null,
  });
  const trigger = triggerRecord({ app: "conf", appSecret: "sig" });
  const { post, store } = pipelineWith([trigger], { plugins: [confirming] });
  const result = await post(trigger.token, "confirm", { "x-sig": "sig" });
  expect(await result.response.text()).toBe("ok");
  expect(store.activity).toEqual([expect.objectContaining({ outcome: "filtered", detail: "open https://provider.test/confirm?token=t1 to confirm; no run" })]);
  expect(store.runs).toHaveLength(0);
});

test("decodeBody() of JSON sent as text/plain (SNS) is given the text, and parses req.rawBody: filter, schema (exact numbers as doubles) and redaction see the object", async () => {
  const given: unknown[] = [];
  const textJson = definePlugin({
    id: "textjson",
    name: "Text JSON",
    secret: { label: "Signing secret", generated: false },
    verify: (req, ctx) => req.headers.get("x-sig") === ctx.secret,
    decodeBody: (body, req) => {
      given.push(body);
      const message = parseJson(req.rawBody) as { Message: string };
      return { ...message, Message: parseJson(new TextEncoder().encode(message.Message)) };
    },
  });
  const trigger = triggerRecord({
    app: "textjson",
    appSecret: "sig",
    filter: { enabled: true, mode: "include", expression: '$.Message.kind == "paid"' },
    redaction: { enabled: true, patterns: ["^card$"] },
    schema: {
      enabled: true,
      document: { type: "object", properties: { Message: { type: "object", properties: { id: { type: "integer", maximum: 9007199254740992 } } } } },
    },
  });
  const { post, store } = pipelineWith([trigger], { plugins: [textJson] });
  const sent = (message: string) => JSON.stringify({ Type: "Notification", Message: message });
  const send = (message: string) => post(trigger.token, sent(message), { "Content-Type": "text/plain; charset=UTF-8", "x-sig": "sig" });
  expect((await send('{"kind":"paid","card":"4242","id":9007199254740993}')).outcome).toBe("run");
  expect(given).toEqual([sent('{"kind":"paid","card":"4242","id":9007199254740993}')]);
  expect((await send('{"kind":"refunded"}')).outcome).toBe("filtered");
  const stored = JSON.parse(store.commits[0].triggerJson!) as { body: unknown };
  expect(stored.body).toEqual({ Type: "Notification", Message: { kind: "paid", card: "[REDACTED]", id: 9007199254740992 } });
  // Every digit kept in the run's body: the schema saw the double, the run the exact number.
  expect(store.commits[0].triggerJson).toContain('"id":9007199254740993');
});

test("deliver() enters after deduplication: the current filter decides unless skipped, the current redaction applies", async () => {
  const trigger = triggerRecord({
    filter: { enabled: true, mode: "include", expression: '$.type == "paid"' },
    redaction: { enabled: true, patterns: ["secret"] },
  });
  const { pipeline, store } = pipelineWith([trigger]);
  const delivery: Delivery = {
    trigger,
    requestId: "original-request",
    now: new Date("2026-03-01T00:00:00.000Z"),
    receivedAt: "2026-02-01T12:00:00.000Z",
    method: "POST",
    headers: {},
    query: {},
    body: { type: "other", secret: "x" },
    bodyJson: null,
    app: null,
    claim: null,
    replayOf: "act-1",
  };
  expect((await pipeline.deliver(delivery)).outcome).toBe("filtered");
  const ending = await pipeline.deliver(delivery, { filter: "skip" });
  expect(ending.outcome).toBe("run");
  expect(ending.run?.requestId).toBe("original-request");
  expect((store.runs[0].trigger as { body: unknown; receivedAt: string }).body).toEqual({ type: "other", secret: "[REDACTED]" });
  expect(store.activity.map((a) => [a.outcome, a.detail])).toEqual([
    ["filtered", "replay of act-1: filter (include) did not match"],
    ["run", "replay of act-1"],
  ]);
});

test("the stored $trigger is the body as received for a generic trigger, and the body as the plugin left it for an app trigger", async () => {
  const text = '{ "secret" : "s", "kept": 1 }';
  const generic = triggerRecord();
  const generic_ = pipelineWith([generic]);
  expect((await generic_.post(generic.token, text, json)).outcome).toBe("run");
  expect(generic_.store.commits[0].triggerJson).toStartWith(`{"body":${text},`);
  // A plugin that changes the parsed body in place: what is stored is what it left.
  const mutating = definePlugin({
    id: "mut",
    name: "Mut",
    secret: { label: "Signing secret", generated: false },
    verify: (req, ctx) => req.headers.get("x-sig") === ctx.secret,
    event: (_req, body) => {
      delete (body as Record<string, unknown>).secret;
      return "e";
    },
  });
  const app = triggerRecord({ id: "trg_app", token: "tok_app", app: "mut", appSecret: "sig" });
  const app_ = pipelineWith([app], { plugins: [mutating] });
  expect((await app_.post(app.token, text, { ...json, "x-sig": "sig" })).outcome).toBe("run");
  const stored = JSON.parse(app_.store.commits[0].triggerJson!) as { body: Record<string, unknown> };
  expect(stored.body).toEqual({ kept: 1 });
});

test("an app plugin's decodeBody() is the body the schema, filter, redaction, event() and the run see; a throw leaves the body as parsed", async () => {
  const seen: unknown[] = [];
  const decoding = definePlugin({
    id: "enc",
    name: "Enc",
    secret: { label: "Signing secret", generated: false },
    verify: (req, ctx) => req.headers.get("x-sig") === ctx.secret,
    decodeBody: (body, _req, options) => {
      seen.push(options.redacting);
      const { payload } = body as { payload: string };
      if (payload === "boom") throw new Error("not base64");
      if (payload === "deep") return { decoded: { type: "paid", nested: JSON.parse("[".repeat(300) + "]".repeat(300)) } };
      return { ...(body as object), ...(options.redacting ? { payload: undefined } : {}), decoded: JSON.parse(atob(payload)) };
    },
    event: (_req, body) => (body as { decoded?: { type?: string } }).decoded?.type ?? null,
  });
  const trigger = triggerRecord({
    app: "enc",
    appSecret: "sig",
    filter: { enabled: true, mode: "include", expression: '$.decoded.type == "paid"' },
    redaction: { enabled: true, patterns: ["^email$"] },
    schema: { enabled: true, document: { type: "object", required: ["decoded"], properties: { decoded: { type: "object", required: ["type"] } } } },
  });
  const { post, store } = pipelineWith([trigger], { plugins: [decoding] });
  const send = (inner: unknown) =>
    post(trigger.token, JSON.stringify({ payload: typeof inner === "string" ? inner : btoa(JSON.stringify(inner)) }), { ...json, "x-sig": "sig" });

  expect((await send({ type: "paid", email: "a@b.c" })).outcome).toBe("run");
  const stored = JSON.parse(store.commits.at(-1)!.triggerJson!) as { body: unknown; app: { event: string } };
  expect(stored.body).toEqual({ decoded: { type: "paid", email: "[REDACTED]" } });
  expect(stored.app.event).toBe("paid");
  expect(seen).toEqual([true]);
  expect((await send({ type: "refunded" })).outcome).toBe("filtered");
  expect((await send({ kind: "no type" })).outcome).toBe("rejected");
  // A throwing decodeBody: the body as parsed, which the schema then refuses (no `decoded`).
  expect((await send("boom")).outcome).toBe("rejected");
  // Decoded deeper than bodies may nest: not taken either.
  expect((await send("deep")).outcome).toBe("rejected");
  expect(store.runs).toHaveLength(1);
  expect(store.activity.slice(-3).map((a) => a.detail)).toEqual([
    expect.stringContaining("/decoded"),
    expect.stringContaining("decoded"),
    expect.stringContaining("decoded"),
  ]);
});

test("under redaction, the body's text as received is stored while redaction changed nothing and the text hides nothing; else the body is serialized", async () => {
  const trigger = triggerRecord({ redaction: { enabled: true, patterns: ["^password$"] } });
  const { post, store } = pipelineWith([trigger]);
  const untouched = '{ "user" : { "name": "n" }, "n": [1, {"a": 2}] }';
  expect((await post(trigger.token, untouched, json)).outcome).toBe("run");
  expect(store.commits[0].triggerJson).toStartWith(`{"body":${untouched},`);
  // Redacted: serialized, without the value.
  expect((await post(trigger.token, '{ "password" : "hunter2" }', json)).outcome).toBe("run");
  expect(store.commits[1].triggerJson).toStartWith('{"body":{"password":"[REDACTED]"},');
  // A duplicate name shadows a value redaction never sees: never the text as received.
  const shadowing = '{"u":{"password":"hunter2"},"u":1}';
  expect((await post(trigger.token, shadowing, json)).outcome).toBe("run");
  expect(store.commits[2].triggerJson).toStartWith('{"body":{"u":1},');
  expect(store.commits[2].triggerJson).not.toContain("hunter2");
  // Colons inside strings are no members.
  const colons = '{"note":"a:b:c","t":"12:00"}';
  expect((await post(trigger.token, colons, json)).outcome).toBe("run");
  expect(store.commits[3].triggerJson).toStartWith(`{"body":${colons},`);
});

test("a large XML body goes to the parser thread, before the dedup check when its key is read from the body, and never when it is a duplicate", async () => {
  const orders = `<orders><id>evt_1</id>${"<order><n>1</n></order>".repeat(XML_THREAD_BYTES / 20)}</orders>`;
  const xml = { "Content-Type": "application/xml" };
  const byBody = triggerRecord({ id: "trg_body", token: "tok_body", dedup: { strategy: "expression", expression: "$.orders.id", windowSeconds: 60 } });
  const byHeader = triggerRecord({ id: "trg_header", token: "tok_header", dedup: { strategy: "header-value", headerName: "X-Key", windowSeconds: 60 } });
  const { post, store } = pipelineWith([byBody, byHeader], { maxBodyBytes: 1024 * 1024 });
  const sent: number[] = [];
  const parse = xmlParserThread.parse.bind(xmlParserThread);
  xmlParserThread.parse = (bytes) => (sent.push(bytes.length), parse(bytes));
  try {
    expect((await post(byBody.token, orders, xml)).outcome).toBe("run");
    expect(sent).toHaveLength(1);
    expect((await post(byBody.token, orders, xml)).outcome).toBe("deduplicated");
    expect(sent).toHaveLength(2);
    expect((await post(byHeader.token, orders, { ...xml, "X-Key": "k" })).outcome).toBe("run");
    expect(sent).toHaveLength(3);
    // A duplicate by its header is never parsed.
    expect((await post(byHeader.token, orders, { ...xml, "X-Key": "k" })).outcome).toBe("deduplicated");
    expect(sent).toHaveLength(3);
    expect(store.runs).toHaveLength(2);
  } finally {
    xmlParserThread.parse = parse;
  }
});

/** A store whose Activity rows land a moment after they are asked for: an answer that waits for its row finds it there. */
class SlowActivityStore extends MemoryIngestStore {
  override async recordActivity(row: Parameters<MemoryIngestStore["recordActivity"]>[0]): Promise<void> {
    await Bun.sleep(20);
    this.activity.push(row);
  }
}

test("malformed XML large enough for the parser thread: 400 invalid XML body, answered once its rejected row is durable", async () => {
  const broken = `<orders>${"<order><n>1</n></order>".repeat(XML_THREAD_BYTES / 20)}</order>`;
  const trigger = triggerRecord();
  const store = new SlowActivityStore();
  const { post } = pipelineWith([trigger], { store, maxBodyBytes: 1024 * 1024 });
  const sent: number[] = [];
  const parse = xmlParserThread.parse.bind(xmlParserThread);
  xmlParserThread.parse = (bytes) => (sent.push(bytes.length), parse(bytes));
  try {
    const result = await post(trigger.token, broken, { "Content-Type": "application/xml" });
    expect(sent).toEqual([broken.length]);
    expect(result.response.status).toBe(400);
    expect(await result.response.json()).toEqual({ error: "invalid XML body", request_id: result.response.headers.get("x-request-id") });
    expect(store.activity).toEqual([expect.objectContaining({ outcome: "rejected", requestId: result.response.headers.get("x-request-id") })]);
    expect(store.activity[0].detail).toStartWith("XML is not well-formed");
    expect(store.runs).toHaveLength(0);
  } finally {
    xmlParserThread.parse = parse;
  }
});

test("the XML parser thread busy: 503 unavailable with Retry-After: 5 and an error row", async () => {
  const orders = `<orders>${"<order><n>1</n></order>".repeat(XML_THREAD_BYTES / 20)}</orders>`;
  const trigger = triggerRecord();
  const { post, store } = pipelineWith([trigger], { maxBodyBytes: 1024 * 1024 });
  const parse = xmlParserThread.parse;
  xmlParserThread.parse = () => Promise.reject(new XmlParserBusy("2000000 bytes of XML already wait for the parser thread"));
  try {
    const result = await post(trigger.token, orders, { "Content-Type": "application/xml" });
    expect(result.response.status).toBe(503);
    expect(result.response.headers.get("retry-after")).toBe("5");
    expect(await result.response.json()).toEqual({ error: "unavailable", request_id: result.response.headers.get("x-request-id") });
    expect(store.activity).toEqual([
      expect.objectContaining({ outcome: "error", detail: "XML parser busy: 2000000 bytes of XML already wait for the parser thread" }),
    ]);
    expect(store.runs).toHaveLength(0);
  } finally {
    xmlParserThread.parse = parse;
  }
});

test("the sandbox workers overloaded: 503 unavailable with Retry-After and an error row saying overload, never a 500", async () => {
  // Workers that never become ready: every evaluation waits out maxWaitMs.
  const never = () => ({ onmessage: null, onerror: null, terminate() {}, postMessage() {}, unref() {} }) as unknown as Worker;
  const pool = new CheckPool({ size: 1, maxWaitMs: 30, spawn: never });
  try {
    const trigger = triggerRecord({ filter: { enabled: true, mode: "include", expression: "match($.s, $.p)" } });
    const { post, store } = pipelineWith([trigger], { compileChecks: pooledChecks(pool) });
    const result = await post(trigger.token, '{"s":"a","p":"a"}', json);
    expect(result.response.status).toBe(503);
    expect(result.response.headers.get("retry-after")).toBe("5");
    expect(await result.response.json()).toEqual({ error: "unavailable", request_id: result.response.headers.get("x-request-id") });
    expect(store.activity.map((a) => [a.outcome, a.detail])).toEqual([["error", "overloaded: no sandbox worker was free within 30 ms"]]);
    expect(store.runs).toHaveLength(0);
  } finally {
    pool.close();
  }
});

test("fan-out: one run per destination its filter selects, committed with the Activity row listing them; none selected is filtered", async () => {
  const trigger = triggerRecord({
    workflow: { kind: "none" },
    redaction: { enabled: true, patterns: ["^email$"] },
    destinations: [
      { name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/crm" }, filter: { expression: '$.type == "order.paid"' } },
      { name: "audit", workflow: { kind: "command", argv: ["/bin/true"], orderingKey: "$.customer" } },
      { name: "archive", workflow: { kind: "none" }, filter: { mode: "exclude", expression: "$.test == true" } },
    ],
  });
  const { post, store } = pipelineWith([trigger]);
  const paid = await post(trigger.token, '{"type":"order.paid","customer":"c1","email":"a@b.c"}', json);
  expect(paid.outcome).toBe("run");
  const [commit] = store.commits;
  const runs = [commit.run!, ...(commit.fanOut ?? [])];
  expect(runs.map((r) => [r.destination, r.status, r.orderingKey ?? null])).toEqual([
    ["crm", "queued", null],
    ["audit", "queued", '"c1"'],
    ["archive", "succeeded", null],
  ]);
  expect(commit.activity.runIds).toEqual(runs.map((r) => r.id));
  expect(commit.activity.runId).toBe(runs[0].id);
  expect(new Set(runs.map((r) => r.requestId)).size).toBe(1);
  expect(commit.triggerJson).not.toContain("a@b.c");
  // Only audit's filterless destination, and archive's exclude: crm's filter does not match.
  expect((await post(trigger.token, '{"type":"refund","customer":"c2"}', json)).outcome).toBe("run");
  expect([store.commits[1].run!, ...(store.commits[1].fanOut ?? [])].map((r) => r.destination)).toEqual(["audit", "archive"]);
  // A trigger whose every destination filters the request out: filtered, replayable.
  const picky = triggerRecord({
    id: "trg_picky",
    token: "tok_picky",
    workflow: { kind: "none" },
    destinations: [{ name: "only-paid", workflow: { kind: "command", argv: ["/bin/true"] }, filter: { expression: '$.type == "order.paid"' } }],
  });
  const p = pipelineWith([picky]);
  expect((await p.post(picky.token, '{"type":"refund"}', json)).outcome).toBe("filtered");
  expect(p.store.activity.map((a) => [a.outcome, a.detail])).toEqual([["filtered", "no destination selected"]]);
  expect(p.store.runs).toHaveLength(0);
});
