import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN_TOKEN, eventually, startTestServer, type TestServer } from "./support/server.ts";

// Numbers kept exactly (README "Payload rules"), through real HTTP: JSON numbers a double cannot
// hold are neither rounded nor nulled, and keys and filters on them use their exact digits.

/** An http workflow target: what it received, as text (JSON.parse would round the numbers again). */
const received: string[] = [];
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    received.push(await request.text());
    return new Response("ok");
  },
});
const targetUrl = `http://127.0.0.1:${target.port}/hook`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  target.stop(true);
});

const BIG = "9007199254740993";
const BELOW = "9007199254740992";
const SENT = `{"id":${BIG},"huge":1e400,"long":0.1000000000000000055511151231257827,"email":"a@b.c"}`;

const send = (url: string, text: string) => fetch(url, { method: "POST", body: text, headers: { "Content-Type": "application/json" } });
/** A management API answer as text: the test reads the digits as the server wrote them. */
const apiText = async (path: string) => (await server.fetch(server.url + path, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
const runsOf = async (triggerId: string) =>
  (await server.api("GET", `/api/runs?triggerId=${triggerId}`)).body as Array<{ id: string; orderingKey: string | null; status: string }>;

test("two different ids beyond 2^53 are two keys for expression dedup: two runs; the same id again is a duplicate", async () => {
  const t = await server.createTrigger({ name: "dedup-big", dedup: { strategy: "expression", expression: "$.id" } });
  for (const id of [BIG, BELOW, BIG]) expect((await send(t.url, `{"id":${id}}`)).status).toBe(200);
  expect((await server.activity(t.id)).map((row) => row.outcome)).toEqual(["deduplicated", "run", "run"]);
  expect(await runsOf(t.id)).toHaveLength(2);
});

test("an ordering key on ids beyond 2^53 keeps them apart: each run waits for its own key", async () => {
  const t = await server.createTrigger({ name: "ordered-big", workflow: { kind: "http", url: targetUrl, orderingKey: "$.customer" } });
  for (const id of [BIG, BELOW]) expect((await send(t.url, `{"customer":${id}}`)).status).toBe(200);
  const runs = await eventually(async () => {
    const all = await runsOf(t.id);
    return all.length === 2 && all.every((r) => r.status === "succeeded") && all;
  });
  expect(runs.map((r) => r.orderingKey).sort()).toEqual([BELOW, BIG]);
});

test("a filter comparison on an id beyond 2^53 holds only for that very id", async () => {
  const t = await server.createTrigger({ name: "filter-big", filter: { enabled: true, mode: "include", expression: `$.id == ${BIG}` } });
  expect((await send(t.url, `{"id":${BELOW}}`)).status).toBe(200);
  expect((await send(t.url, `{"id":${BIG}}`)).status).toBe(200);
  expect((await server.activity(t.id)).map((row) => row.outcome)).toEqual(["run", "filtered"]);
  const check = await server.fetch(server.url + "/api/check", {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: `{"kind":"filter","expression":"$.id == ${BIG}","sample":{"id":${BELOW}}}`,
  });
  expect(await check.json()).toEqual({ ok: true, result: false });
});

test("$trigger.body keeps 1e400, 9007199254740993 and a long fraction as sent: stored, listed, delivered, replayed", async () => {
  for (const redaction of [
    { enabled: false, patterns: [] },
    { enabled: true, patterns: ["^email$"] },
  ]) {
    received.length = 0;
    const t = await server.createTrigger({ name: `verbatim-${redaction.enabled}`, redaction, workflow: { kind: "http", url: targetUrl } });
    expect((await send(t.url, SENT)).status).toBe(200);
    const body = redaction.enabled ? SENT.replace('"a@b.c"', '"[REDACTED]"') : SENT;
    const [run] = await eventually(async () => {
      const runs = await runsOf(t.id);
      return runs[0]?.status === "succeeded" && runs;
    });
    expect(await apiText(`/api/runs/${run.id}`)).toContain(`"trigger":{"body":${body},`);
    expect(await apiText(`/api/runs?triggerId=${t.id}&include=trigger`)).toContain(`"trigger":{"body":${body},`);
    expect(received).toHaveLength(1);
    expect(received[0]).toStartWith(`{"body":${body},`);

    const replayed = await server.fetch(server.url + `/api/runs/${run.id}/replay`, { method: "POST", headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(replayed.status).toBe(201);
    expect(await replayed.text()).toContain(`"trigger":{"body":${body},`);
    await eventually(() => received.length === 2);
    expect(received[1]).toStartWith(`{"body":${body},`);
  }
});

test("a filtered request keeps its numbers for replay too", async () => {
  const t = await server.createTrigger({ name: "filtered-big", filter: { enabled: true, mode: "include", expression: "$.go == true" } });
  expect((await send(t.url, SENT)).status).toBe(200);
  const [row] = await server.activity(t.id);
  expect(row.outcome).toBe("filtered");
  const replayed = await server.fetch(server.url + `/api/triggers/${t.id}/activity/${row.id}/replay`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: '{"filter":"skip"}',
  });
  expect(replayed.status).toBe(201);
  expect(await replayed.text()).toContain(`"trigger":{"body":${SENT},`);
});

test("a JSON Schema sees an integer beyond 2^53 as an integer and 1e400 as a number", async () => {
  const document = { type: "object", required: ["id"], properties: { id: { type: "integer" }, huge: { type: "number" }, long: { type: "number" } } };
  const t = await server.createTrigger({ name: "schema-big", schema: { enabled: true, document } });
  expect((await send(t.url, SENT)).status).toBe(200);
  expect((await send(t.url, '{"id":0.1000000000000000055511151231257827}')).status).toBe(422);
});

test("a command workflow reads $trigger with the numbers as sent on its stdin", async () => {
  const t = await server.createTrigger({ name: "command-big", response: { mode: "workflow", timeoutMs: 5000 }, workflow: { kind: "command", argv: ["cat"] } });
  const r = await send(t.url, SENT);
  expect(r.status).toBe(200);
  expect(await r.text()).toStartWith(`{"body":${SENT},`);
});
