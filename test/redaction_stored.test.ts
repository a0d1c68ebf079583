import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "./support/server.ts";

/**
 * Redaction covers what is stored (README "PII redaction"): whatever shape the sender chose — JSON
 * sent as text, octet-stream or with no content type, JSON inside a form field, a header named
 * like a redacted field — no matching field's value reaches `$trigger`, the database or its WAL.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const REDACTION = { enabled: true, patterns: ["email", "card"] };
const runs = async (id: string) => (await server.api("GET", `/api/runs?triggerId=${id}&include=trigger`)).body as any[];
const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) => server.fetch(url, { method: "POST", body, headers });

/** No file of the data dir (the database, its WAL) holds `text`. */
function storedNowhere(text: string): void {
  for (const file of readdirSync(server.dataDir))
    expect({ file, holds: readFileSync(join(server.dataDir, file)).includes(text) }).toEqual({ file, holds: false });
}

test("JSON sent as text, octet-stream or with no content type is stored redacted, as its redacted JSON text", async () => {
  const t = await server.createTrigger({ name: "text-json", redaction: REDACTION });
  const object = JSON.stringify({ customer: { email: "text-pii@example.org", name: "Jane" }, amount: 5 });
  const array = JSON.stringify([{ card_number: "4242424242424242", email: "stream-pii@example.org" }]);
  const bare = JSON.stringify({ email: "bare-pii@example.org" });
  expect((await post(t.url, object, { "Content-Type": "text/plain" })).status).toBe(200);
  expect((await post(t.url, array, { "Content-Type": "application/octet-stream" })).status).toBe(200);
  expect((await post(t.url, new TextEncoder().encode(bare))).status).toBe(200);

  const stored = (await runs(t.id)).map((run) => run.trigger.body);
  expect(stored.every((body) => typeof body === "string")).toBe(true);
  expect(stored.map((body) => JSON.parse(body))).toEqual([
    { email: "[REDACTED]" },
    [{ card_number: "[REDACTED]", email: "[REDACTED]" }],
    { customer: { email: "[REDACTED]", name: "Jane" }, amount: 5 },
  ]);
  for (const address of ["text-pii@", "stream-pii@", "bare-pii@", "4242424242424242"]) storedNowhere(address);
});

test("text that is not JSON, or JSON in which nothing matched, is stored exactly as sent", async () => {
  const t = await server.createTrigger({ name: "text-kept", redaction: REDACTION });
  const bodies = ["plain words: write to kept@example.org", "[INFO] {card declined}", '{ "amount": 1.50, "id": 9007199254740993 }', '{"email": "not closed"'];
  for (const body of bodies) expect((await post(t.url, body, { "Content-Type": "text/plain" })).status).toBe(200);
  expect((await runs(t.id)).map((run) => run.trigger.body).reverse()).toEqual(bodies);
});

test("a form field holding JSON (Slack's `payload`) is stored redacted inside, still a string", async () => {
  const t = await server.createTrigger({ name: "slack-form", redaction: REDACTION });
  const payload = JSON.stringify({ type: "block_actions", user: { id: "U1", email: "form-pii@example.org" }, actions: [{ value: "approve" }] });
  const form = new URLSearchParams({ payload, note: "kept" }).toString();
  expect((await post(t.url, form, { "Content-Type": "application/x-www-form-urlencoded" })).status).toBe(200);
  const [run] = await runs(t.id);
  expect(run.trigger.body.note).toBe("kept");
  expect(typeof run.trigger.body.payload).toBe("string");
  expect(JSON.parse(run.trigger.body.payload)).toEqual({ type: "block_actions", user: { id: "U1", email: "[REDACTED]" }, actions: [{ value: "approve" }] });
  storedNowhere("form-pii@");
});

test("a request header whose name matches a pattern is stored as [REDACTED]; the others as sent", async () => {
  const t = await server.createTrigger({ name: "header-pii", redaction: REDACTION });
  const answer = await post(t.url, '{"ok":true}', { "Content-Type": "application/json", "X-Customer-Email": "header-pii@example.org", "X-Trace": "t-1" });
  expect(answer.status).toBe(200);
  const [run] = await runs(t.id);
  expect(run.trigger.headers["x-customer-email"]).toBe("[REDACTED]");
  expect(run.trigger.headers["x-trace"]).toBe("t-1");
  expect(run.trigger.body).toEqual({ ok: true });
  storedNowhere("header-pii@");
});

test("a filtered request keeps its redacted request, and a replay applies the current patterns to it again", async () => {
  const t = await server.createTrigger({ name: "filtered-text", redaction: REDACTION, filter: { enabled: true, expression: "$.keep == true" } });
  const body = JSON.stringify({ email: "filtered-pii@example.org", name: "Jane" });
  expect((await post(t.url, body, { "Content-Type": "text/plain", "X-Customer-Email": "filtered-pii@example.org" })).status).toBe(200);
  const [row] = await server.activity(t.id);
  expect(row.outcome).toBe("filtered");
  storedNowhere("filtered-pii@");

  await server.api("PATCH", `/api/triggers/${t.id}`, { redaction: { enabled: true, patterns: ["email", "^name$"] } });
  const replayed = await server.api("POST", `/api/triggers/${t.id}/activity/${row.id}/replay`, { filter: "skip" });
  expect(replayed.status).toBe(201);
  expect(JSON.parse(replayed.body.trigger.body)).toEqual({ email: "[REDACTED]", name: "[REDACTED]" });
  expect(replayed.body.trigger.headers["x-customer-email"]).toBe("[REDACTED]");
});
