import { expect, test } from "bun:test";
import { MemoryIngestStore, triggerRecord } from "../../test/support/ingest.ts";
import { compileChecks } from "../checks/compile.ts";
import { parseAddress } from "../net/cidr.ts";
import { definePlugin } from "../plugins/define.ts";
import type { TriggerRecord } from "../records/trigger.ts";
import { IngestPipeline } from "./pipeline.ts";

// Report-only rollout (README "Report-only rollout") through the whole processing order, in process.
const arrivedAt = new Date("2026-02-01T12:00:00.000Z");
const report = { mode: "report" as const, reportUntil: "2026-02-02T00:00:00Z" };
const bearerAuth = { type: "bearer" as const, signatureHeader: "X-Signature", encoding: "hex" as const };
const json = { "Content-Type": "application/json" };

const acme = definePlugin({
  id: "acme",
  name: "Acme",
  secret: { label: "Signing secret", generated: false },
  verify: (req, ctx) => req.headers.get("x-sig") === ctx.secret,
  handshake: (req) => {
    if (req.method === "GET") return new Response("echo");
    return new TextDecoder().decode(req.rawBody).includes("challenge") ? new Response("answered") : null;
  },
});

function pipelineWith(trigger: TriggerRecord, caller = "127.0.0.1") {
  const store = new MemoryIngestStore();
  const pipeline = new IngestPipeline({
    triggers: { findByToken: (token) => (token === trigger.token ? trigger : undefined), adoptAppSecret: async () => "adopted" },
    callerAddress: () => parseAddress(caller),
    store,
    plugins: { get: (id) => (id === acme.id ? acme : undefined) },
    compileChecks,
    maxBodyBytes: 1024,
    baseUrl: () => "http://inlet.test",
    now: () => arrivedAt,
  });
  const send = (body: string, headers: Record<string, string> = {}, method = "POST") =>
    pipeline.handle(
      new Request(`http://inlet.test/webhooks/${trigger.token}`, { method, body: method === "POST" ? body : undefined, headers }),
      trigger.token,
      "",
    );
  const payloads = () => store.runs.map((r) => r.trigger as Record<string, unknown>);
  return { send, store, payloads };
}

test("a wrong secret is accepted: a run whose $trigger.auth says why, a row that starts report-only, counted as a report failure", async () => {
  const trigger = triggerRecord({ auth: { ...bearerAuth, ...report }, secret: "s3cret" });
  const { send, store, payloads } = pipelineWith(trigger);
  const wrong = await send('{"a":1}', { ...json, Authorization: "Bearer nope" });
  expect(wrong.response.status).toBe(200);
  expect([wrong.outcome, wrong.authFailure]).toEqual(["run", "report"]);
  const right = await send('{"a":2}', { ...json, Authorization: "Bearer s3cret" });
  expect([right.outcome, right.authFailure]).toEqual(["run", undefined]);
  expect(payloads().map((p) => p.auth)).toEqual([{ verified: false, reason: "wrong bearer token" }, { verified: true }]);
  expect(store.activity.map((a) => [a.outcome, a.detail])).toEqual([
    ["run", "report-only: authentication failed: wrong bearer token"],
    ["run", null],
  ]);
});

test("an enforcing trigger's $trigger has no auth key; its failures are refused and counted as enforce failures", async () => {
  const trigger = triggerRecord({ auth: bearerAuth, secret: "s3cret" });
  const { send, payloads } = pipelineWith(trigger);
  await send("{}", { ...json, Authorization: "Bearer s3cret" });
  expect(payloads()[0]).not.toContainKey("auth");
  expect(payloads()[0]).not.toContainKey("sources");
  const refused = await send("{}", { ...json, Authorization: "Bearer nope" });
  expect([refused.response.status, refused.authFailure]).toEqual([401, "enforce"]);
});

test("an unverified request continues the processing order: whatever ends it, its row starts report-only", async () => {
  const trigger = triggerRecord({
    auth: { ...bearerAuth, ...report },
    secret: "s3cret",
    dedup: { strategy: "payload-hash", windowSeconds: 60 },
    filter: { enabled: true, mode: "include", expression: '$.type == "paid"' },
    schema: { enabled: true, document: { type: "object", required: ["type"] } },
  });
  const { send, store } = pipelineWith(trigger);
  const wrong = { ...json, Authorization: "Bearer nope" };
  const outcomes = [];
  for (const body of ['{"type":"paid"}', '{"type":"paid"}', '{"type":"other"}', "{}", "{broken"]) outcomes.push((await send(body, wrong)).outcome);
  expect(outcomes).toEqual(["run", "deduplicated", "filtered", "rejected", "rejected"]);
  const note = "report-only: authentication failed: wrong bearer token";
  expect(store.activity.map((a) => a.detail)).toEqual([
    note,
    note,
    `${note}; filter (include) did not match`,
    `${note}; schema: /type is required`,
    expect.stringMatching(/^report-only: authentication failed: wrong bearer token; body is not valid JSON/),
  ]);
});

test("sources in report mode: an outsider goes on with $trigger.sources naming it; both checks failing read auth first", async () => {
  const trigger = triggerRecord({ auth: { ...bearerAuth, ...report }, secret: "s3cret", sources: { allow: ["192.0.2.0/24"], ...report } });
  const outsider = pipelineWith(trigger, "203.0.113.9");
  const result = await outsider.send("{}", { ...json, Authorization: "Bearer s3cret" });
  expect(result.response.status).toBe(200);
  expect(outsider.payloads()[0]).toMatchObject({ auth: { verified: true }, sources: { allowed: false, address: "203.0.113.9" } });
  expect(outsider.store.activity[0].detail).toBe("report-only: source address 203.0.113.9 is not in the trigger's allowed sources");
  await outsider.send("{}", { ...json, Authorization: "Bearer nope" });
  expect(outsider.store.activity[1].detail).toBe(
    "report-only: authentication failed: wrong bearer token; source address 203.0.113.9 is not in the trigger's allowed sources",
  );

  const insider = pipelineWith(trigger, "192.0.2.7");
  await insider.send("{}", { ...json, Authorization: "Bearer s3cret" });
  expect(insider.payloads()[0]).toMatchObject({ sources: { allowed: true } });
  expect(insider.store.activity[0].detail).toBeNull();
});

test("handshakes stay enforced: never answered to a request a report-only check let through", async () => {
  const app = triggerRecord({
    app: "acme",
    appSecret: "sig",
    auth: { ...bearerAuth, type: "none", ...report },
    sources: { allow: ["192.0.2.0/24"], ...report },
  });
  const inside = pipelineWith(app, "192.0.2.7");
  const forged = await inside.send("challenge", { "x-sig": "forged" });
  expect([forged.response.status, forged.outcome, forged.authFailure]).toEqual([401, "auth_failed", "enforce"]);
  expect(inside.store.activity[0].detail).toBe("acme signature missing or invalid");
  expect(await (await inside.send("challenge", { "x-sig": "sig" })).response.text()).toBe("answered");
  // Not a handshake: an event like any other, accepted unverified.
  expect((await inside.send("{}", { ...json, "x-sig": "forged" })).outcome).toBe("run");

  const outside = pipelineWith(app, "203.0.113.9");
  for (const [body, method] of [
    ["challenge", "POST"],
    ["", "GET"],
  ]) {
    const refused = await outside.send(body, { "x-sig": "sig" }, method);
    expect([refused.response.status, refused.outcome]).toEqual([403, "rejected"]);
  }
  expect(outside.store.activity.map((a) => a.detail)).toEqual(Array(2).fill("source address 203.0.113.9 is not in the trigger's allowed sources"));
});
